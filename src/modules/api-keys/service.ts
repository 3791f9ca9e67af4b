import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { splitList } from '../sales-channels/service.ts';
import { newApiKeyToken, redactToken } from './defaults.ts';
import { hashToken } from './lookup.ts';
import {
  channelsOfKeys,
  countApiKeys,
  deleteKeyLinks,
  findLiveApiKey,
  findLiveChannelIds,
  insertApiKey,
  linkChannels,
  listApiKeyRows,
  lockLiveApiKey,
  unlinkChannels,
  updateApiKeyRow,
  type ApiKeyFilters,
  type ApiKeyRow,
  type KeyType,
} from './queries.ts';

export interface ApiKeyView {
  id: string;
  title: string;
  /** Publishable: the token. Secret: the redacted form, except in the create response. */
  token: string;
  redacted: string;
  type: KeyType;
  last_used_at: Date | null;
  created_by: string | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  created_at: Date;
  updated_at: Date;
  sales_channels: { id: string; name: string }[];
}

function toView(row: ApiKeyRow, channels: { id: string; name: string }[]): ApiKeyView {
  const { token, token_hash: _hash, deleted_at: _deleted, ...rest } = row;
  return { ...rest, token: token ?? row.redacted, sales_channels: channels };
}

/** Views of several keys with their channels: two queries whatever the number of keys. */
async function withChannels(db: Executor, rows: ApiKeyRow[]): Promise<ApiKeyView[]> {
  const byKey = new Map<string, { id: string; name: string }[]>();
  for (const { api_key_id, id, name } of await channelsOfKeys(
    db,
    rows.map((r) => r.id),
  )) {
    byKey.set(api_key_id, [...(byKey.get(api_key_id) ?? []), { id, name }]);
  }
  return rows.map((row) => toView(row, byKey.get(row.id) ?? []));
}

const notFound = (id: string) => errors.notFound('api_key_not_found', { id });

const isRevoked = (row: ApiKeyRow, now: Date) => row.revoked_at !== null && row.revoked_at <= now;

export async function listApiKeys(ctx: Ctx, filters: ApiKeyFilters, page: Page) {
  const f = { ...filters, id: splitList(filters.id) };
  const [rows, count] = await Promise.all([listApiKeyRows(ctx.db, f, page), countApiKeys(ctx.db, f)]);
  return { api_keys: await withChannels(ctx.db, rows), count };
}

export async function getApiKey(ctx: Ctx, id: string): Promise<ApiKeyView> {
  const row = await findLiveApiKey(ctx.db, id);
  if (!row) throw notFound(id);
  const [view] = await withChannels(ctx.db, [row]);
  return view;
}

/** The only response that ever carries a secret key's full token: only its hash is stored. */
export async function createApiKey(ctx: Ctx, input: { title: string; type: KeyType }): Promise<ApiKeyView> {
  const token = newApiKeyToken(input.type);
  const now = ctx.clock.now();
  const row = await insertApiKey(ctx.db, {
    id: newId('apk'),
    title: input.title,
    type: input.type,
    token: input.type === 'publishable' ? token : null,
    token_hash: hashToken(token),
    redacted: redactToken(token),
    created_by: ctx.actor?.id ?? null,
    created_at: now,
    updated_at: now,
  });
  return { ...toView(row, []), token };
}

export async function updateApiKey(ctx: Ctx, id: string, input: { title: string }): Promise<ApiKeyView> {
  const row = await updateApiKeyRow(ctx.db, id, { title: input.title, updated_at: ctx.clock.now() });
  if (!row) throw notFound(id);
  const [view] = await withChannels(ctx.db, [row]);
  return view;
}

/**
 * Revokes now, or in `revoke_in` seconds. A key already revoked stays revoked (re-revoking it with
 * a delay would bring it back to life); a scheduled revocation may be brought forward or moved.
 */
export async function revokeApiKey(ctx: Ctx, id: string, input: { revoke_in?: number }): Promise<ApiKeyView> {
  return inTx(ctx, async ({ tx, clock, actor }) => {
    const now = clock.now();
    const key = await lockLiveApiKey(tx, id);
    if (!key) throw notFound(id);
    if (isRevoked(key, now)) throw errors.invalid('api_key_already_revoked', { id });
    const revokedAt = new Date(now.getTime() + Math.round((input.revoke_in ?? 0) * 1000));
    const row = await updateApiKeyRow(tx, id, {
      revoked_at: revokedAt,
      revoked_by: actor?.id ?? null,
      updated_at: now,
    });
    const [view] = await withChannels(tx, [row!]);
    return view;
  });
}

/** Soft delete of a revoked key, with its channel links. */
export async function deleteApiKey(ctx: Ctx, id: string) {
  await inTx(ctx, async ({ tx, clock }) => {
    const now = clock.now();
    const key = await lockLiveApiKey(tx, id);
    if (!key) throw notFound(id);
    if (!isRevoked(key, now)) throw errors.notAllowed('api_key_not_revoked', { id });
    await updateApiKeyRow(tx, id, { deleted_at: now, updated_at: now });
    await deleteKeyLinks(tx, id);
  });
  return { id, object: 'api_key' as const, deleted: true as const };
}

/** Links and unlinks sales channels of a publishable key. Every id to add must be a live channel. */
export async function batchApiKeySalesChannels(
  ctx: Ctx,
  id: string,
  input: { add?: string[]; remove?: string[] },
): Promise<ApiKeyView> {
  const add = [...new Set(input.add ?? [])].sort();
  const remove = [...new Set(input.remove ?? [])].sort();
  return inTx(ctx, async ({ tx }) => {
    const key = await lockLiveApiKey(tx, id);
    if (!key) throw notFound(id);
    if (key.type !== 'publishable') throw errors.invalid('api_key_not_publishable');
    const live = new Set(await findLiveChannelIds(tx, add));
    const missing = add.filter((c) => !live.has(c));
    if (missing.length) throw errors.invalid('sales_channels_missing', { ids: missing.join(', ') });
    await linkChannels(tx, id, add);
    await unlinkChannels(tx, id, remove);
    const [view] = await withChannels(tx, [key]);
    return view;
  });
}
