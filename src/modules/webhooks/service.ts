import { grants } from '../../platform/http/permissions.ts';
import { randomBytes } from 'node:crypto';
import { inTx, type Ctx } from '../../platform/context.ts';
import { encryptSecret } from '../../platform/crypto.ts';
import { EVENT_NAMES } from '../../platform/events/names.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import type { DeliveryStatus } from './tables.ts';
import { assertPublicUrl } from '../../platform/delivery/url-guard.ts';

/** What the webhook rules need from the configuration. */
export interface WebhookPolicy {
  encryptionKey: string;
  /** Production without WEBHOOK_ALLOW_PRIVATE: URLs resolving to private addresses are refused. */
  blockPrivate: boolean;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const KNOWN_EVENTS = new Set<string>(EVENT_NAMES);
const KNOWN_GROUPS = new Set(EVENT_NAMES.map((n) => n.split('.')[0]));

function toWebhook(row: q.SubscriptionRow, ctx?: Ctx): Webhook {
  const { id, url, events, active, created_at, updated_at } = row;
  return { id, url: isViewer(ctx) ? urlForViewer(url) : url, events, active, created_at, updated_at };
}

/** A signed-in role that may not change webhooks sees their targets masked. */
const isViewer = (ctx?: Ctx) => !!ctx?.actor && !grants(ctx.actor.permissions, 'developer:write');

/**
 * What a viewer sees of a target: where deliveries go (scheme, host, port), not what a URL may
 * carry as credentials (user info, a token in the path as Slack's hooks have, the query).
 */
export function urlForViewer(raw: string): string {
  const url = new URL(raw);
  return `${url.protocol}//${url.host}/${url.pathname !== '/' || url.search ? '…' : ''}`;
}

/** Each entry is a known event name, a known group's `group.*`, or `*`; duplicates collapse. */
function validEvents(events: string[]): string[] {
  const unknown = events.filter(
    (e) => !(e === '*' || KNOWN_EVENTS.has(e) || (e.endsWith('.*') && KNOWN_GROUPS.has(e.slice(0, -2)))),
  );
  if (unknown.length) {
    throw errors.invalid(
      `Invalid request: Field 'events' has unknown event names: ${unknown.map((e) => `"${e}"`).join(', ')}`,
    );
  }
  return [...new Set(events)];
}

async function validUrl(raw: string, policy: WebhookPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.invalid(`Invalid request: Field 'url' must be an absolute http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw errors.invalid(`Invalid request: Field 'url' must use http or https, got '${url.protocol.slice(0, -1)}'`);
  }
  if (policy.blockPrivate) {
    try {
      await assertPublicUrl(url);
    } catch (err) {
      const why = (err as { code?: string }).code ? `its host could not be resolved` : (err as Error).message;
      throw errors.invalid(`Invalid request: Field 'url' is not allowed: ${why}`);
    }
  }
  return url.toString();
}

const notFound = (id: string) => errors.notFound(`Webhook with id: ${id} not found`);

/** The generated secret and the given one are returned here once; only the encrypted form is stored. */
export async function createWebhook(
  ctx: Ctx,
  policy: WebhookPolicy,
  input: { url: string; events: string[]; signing_secret?: string },
): Promise<Webhook & { signing_secret: string }> {
  const events = validEvents(input.events);
  const url = await validUrl(input.url, policy);
  const secret = input.signing_secret ?? `whsec_${randomBytes(32).toString('base64url')}`;
  const now = ctx.clock.now();
  const row = await q.insertSubscription(ctx.db, {
    id: newId('wh'),
    url,
    events,
    active: true,
    secret_encrypted: encryptSecret(policy.encryptionKey, secret),
    created_at: now,
    updated_at: now,
  });
  return { ...toWebhook(row), signing_secret: secret };
}

export async function listWebhooks(ctx: Ctx, page: Page): Promise<{ webhooks: Webhook[]; count: number }> {
  const rows = page.limit === 0 ? [] : await q.listLiveSubscriptionRows(ctx.db, page);
  return { webhooks: rows.map((r) => toWebhook(r, ctx)), count: await q.countLiveSubscriptions(ctx.db) };
}

export async function getWebhook(ctx: Ctx, id: string): Promise<Webhook> {
  const row = await q.findLiveSubscription(ctx.db, id);
  if (!row) throw notFound(id);
  return toWebhook(row, ctx);
}

/** Deactivating closes the open deliveries (dead, replayable); new events reach active subscriptions only. */
export async function updateWebhook(
  ctx: Ctx,
  policy: WebhookPolicy,
  id: string,
  input: { url?: string; events?: string[]; active?: boolean },
): Promise<Webhook> {
  const events = input.events && validEvents(input.events);
  const url = input.url === undefined ? undefined : await validUrl(input.url, policy);
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const row = await q.updateLiveSubscription(tctx.tx, id, { url, events, active: input.active, updated_at: now });
    if (!row) throw notFound(id);
    if (input.active === false) await q.closeOpenDeliveries(tctx.tx, id, now);
    return toWebhook(row);
  });
}

/** Soft delete: the ledger stays readable in the database; open deliveries stop. */
export async function deleteWebhook(ctx: Ctx, id: string): Promise<{ id: string; object: 'webhook'; deleted: true }> {
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    if (!(await q.softDeleteSubscription(tctx.tx, id, now))) throw notFound(id);
    await q.closeOpenDeliveries(tctx.tx, id, now);
    return { id, object: 'webhook' as const, deleted: true as const };
  });
}

// ---- ledger ----

export interface Delivery {
  id: string;
  event: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  created_at: Date;
}

function toDelivery(row: q.DeliveryRow): Delivery {
  const { id, event, status, attempt_count, next_attempt_at, last_status_code, created_at } = row;
  return { id, event, status, attempt_count, next_attempt_at, last_status_code, created_at };
}

export async function listDeliveries(
  ctx: Ctx,
  webhookId: string,
  status: DeliveryStatus | DeliveryStatus[] | undefined,
  page: Page,
): Promise<{ deliveries: Delivery[]; count: number }> {
  await getWebhook(ctx, webhookId);
  const statuses = status === undefined ? undefined : [status].flat();
  const rows = page.limit === 0 ? [] : await q.listDeliveryRows(ctx.db, webhookId, statuses, page);
  return { deliveries: rows.map(toDelivery), count: await q.countDeliveries(ctx.db, webhookId, statuses) };
}

const deliveryNotFound = (id: string) => errors.notFound(`Webhook delivery with id: ${id} not found`);

export async function getDelivery(ctx: Ctx, webhookId: string, deliveryId: string) {
  await getWebhook(ctx, webhookId);
  const row = await q.findDeliveryWithBody(ctx.db, webhookId, deliveryId);
  if (!row) throw deliveryNotFound(deliveryId);
  const attempts = await q.listAttemptRows(ctx.db, deliveryId);
  return {
    ...toDelivery(row),
    payload: JSON.parse(row.body) as unknown,
    attempts: attempts.map(({ attempted_at, status_code, duration_ms, error, response_body }) => ({
      attempted_at,
      status_code,
      duration_ms,
      error,
      // The receiver's answer may echo secrets (its own tokens, our payload's data): admins only.
      response_body: isViewer(ctx) ? null : response_body,
    })),
  };
}

async function activeWebhook(ctx: Ctx, id: string): Promise<void> {
  const hook = await getWebhook(ctx, id);
  if (!hook.active)
    throw errors.notAllowed(`Webhook with id: ${id} is not active; activate it before retrying deliveries`);
}

/** Due at once, whatever its status (a dead one gets one more attempt; it dies again if that fails). */
export async function retryDelivery(ctx: Ctx, webhookId: string, deliveryId: string): Promise<Delivery> {
  await activeWebhook(ctx, webhookId);
  if (!(await q.makeDeliveryDue(ctx.db, webhookId, deliveryId, ctx.clock.now()))) throw deliveryNotFound(deliveryId);
  const row = await q.findDeliveryWithBody(ctx.db, webhookId, deliveryId);
  return toDelivery(row!);
}

export async function replayDeadDeliveries(ctx: Ctx, webhookId: string): Promise<{ replayed: number }> {
  await activeWebhook(ctx, webhookId);
  return { replayed: await q.makeDeadDeliveriesDue(ctx.db, webhookId, ctx.clock.now()) };
}
