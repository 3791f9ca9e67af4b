import type { Config } from '../../platform/config.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import * as pq from '../plugins/queries.ts';
import { AppError, errors } from '../../platform/http/errors.ts';
import { installPlugin, installStates, type PluginsCtx } from '../plugins/service.ts';
import { marketplaceClient, MarketplaceError, type MarketplaceClient } from './client.ts';
import { instanceIdFor } from './instance-id.ts';

/** The paid flow needs a marketplace: an unfederated shop has nothing to buy. */
export function requireClient(config: Config): MarketplaceClient {
  const client = marketplaceClient(config.federation);
  if (!client) throw errors.notAllowed('federation_not_configured');
  return client;
}

/** The marketplace's own refusals (unknown item, free item, bad e-mail) keep their meaning; the rest stays a 502. */
function upstream(err: unknown): never {
  if (err instanceof MarketplaceError && err.upstreamStatus === 404)
    throw errors.notFound('federation_upstream_not_found', { detail: err.message });
  if (err instanceof MarketplaceError && err.upstreamStatus === 400)
    throw errors.invalid('federation_upstream_refused', { detail: err.message });
  throw err;
}

export interface CheckoutInput {
  marketplace_id: string;
  version: string;
  customer_email: string;
}

/**
 * Opens the marketplace's hosted checkout for a paid item. What goes out: the item, version, the
 * operator's e-mail (the license's buyer), the instance token, and this shop's PUBLIC_URL for the
 * license-issued callback. Nothing about the shop's own customers or catalog.
 */
export async function startPaidCheckout(
  ctx: PluginsCtx,
  config: Config,
  input: CheckoutInput,
): Promise<{ id: string; url: string; expires_at: string }> {
  const client = requireClient(config);
  const instanceId = await instanceIdFor(ctx, config.encryptionKey, client.url);
  const body = { ...input, instance_id: instanceId, callback_url: config.publicUrl };
  const session = await client
    .postJson<{ id?: unknown; url?: unknown; expires_at?: unknown }>('/store/marketplace/checkout/session', body)
    .catch(upstream);
  if (typeof session.id !== 'string' || typeof session.url !== 'string' || typeof session.expires_at !== 'string') {
    throw new MarketplaceError('Marketplace answered the checkout without an id, url or expires_at');
  }
  return { id: session.id, url: session.url, expires_at: session.expires_at };
}

export interface Purchase {
  marketplace_id: string;
  version: string;
  license_key: string;
}

/**
 * Installs a purchased item with its license, once: a second delivery (callback after a poll, or
 * the other way round) finds the row already there and returns it. A failed earlier attempt is
 * retried with the new license (installPlugin restarts failed rows).
 */
export async function installPurchase(ctx: PluginsCtx, p: Purchase): Promise<string> {
  const existing = (await installStates(ctx)).get(p.marketplace_id);
  if (existing && existing.status !== 'failed') return existing.plugin_id;
  try {
    return (
      await installPlugin(ctx, { marketplace_id: p.marketplace_id, version: p.version, license_key: p.license_key })
    ).id;
  } catch (err) {
    const now = (await installStates(ctx)).get(p.marketplace_id);
    if (err instanceof AppError && err.type === 'conflict' && now) return now.plugin_id;
    throw err;
  }
}

interface RemoteSession {
  id?: unknown;
  status?: unknown;
  marketplace_id?: unknown;
  version?: unknown;
  expires_at?: unknown;
  paid_at?: unknown;
  license_key?: unknown;
}

/**
 * The pull path when the callback never arrives: reads the marketplace's session and, once it is
 * paid, installs the item with its license (idempotent, so polling again is harmless).
 */
export async function pollPaidCheckout(ctx: PluginsCtx, config: Config, id: string) {
  const client = requireClient(config);
  const s = await client
    .getJson<RemoteSession>(`/store/marketplace/checkout/session/${encodeURIComponent(id)}`)
    .catch(upstream);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const status = str(s.status) ?? 'open';
  const marketplaceId = str(s.marketplace_id);
  const version = str(s.version);
  const licenseKey = str(s.license_key);
  let pluginId: string | null = null;
  if (status === 'paid' && marketplaceId && version && licenseKey) {
    pluginId = await installPurchase(ctx, { marketplace_id: marketplaceId, version, license_key: licenseKey });
  }
  return {
    checkout: {
      id,
      status,
      marketplace_id: marketplaceId,
      version,
      expires_at: str(s.expires_at),
      paid_at: str(s.paid_at),
    },
    plugin_id: pluginId,
  };
}

/**
 * The shop's operator cancels the subscription behind a licensed plugin. What goes out is what a
 * licence check sends (the key, the marketplace id, the instance token). The marketplace stops the
 * renewals; the licence, and so the plugin, runs to the end of the period already paid.
 */
export async function cancelPluginSubscription(ctx: PluginsCtx, config: Config, pluginId: string) {
  const client = requireClient(config);
  const row = await pq.findPlugin(ctx.db, pluginId);
  if (!row?.license_key || !row.marketplace_id)
    throw errors.notFound('marketplace_plugin_not_licensed', { id: pluginId });
  const answer = await client
    .postJson<{ subscription?: Record<string, unknown> }>('/store/marketplace/subscriptions/cancel', {
      license_key: decryptSecret(config.encryptionKey, row.license_key),
      marketplace_id: row.marketplace_id,
      instance_id: await instanceIdFor(ctx, config.encryptionKey, client.url),
    })
    .catch(upstream);
  const s = answer.subscription ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    subscription: {
      plugin_id: row.id,
      marketplace_id: row.marketplace_id,
      status: str(s.status) ?? 'active',
      billing: str(s.billing),
      current_period_end: str(s.current_period_end),
      cancel_at_period_end: s.cancel_at_period_end === true,
      canceled_at: str(s.canceled_at),
    },
  };
}
