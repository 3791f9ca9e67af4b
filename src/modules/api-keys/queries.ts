import { and, asc, eq, gt, gte, ilike, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import { countRows, findLiveRow, rowsPage, liveIdsAmong } from '../../platform/db/live-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { salesChannels } from '../sales-channels/tables.ts';
import { hashToken } from './lookup.ts';
import { apiKeySalesChannels, apiKeys } from './tables.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type KeyType = ApiKeyRow['type'];

export interface ApiKeyFilters {
  q?: string;
  id?: string[];
  title?: string[];
  token?: string[];
  type?: KeyType;
  revoked_at?: { $gt?: Date; $gte?: Date; $lt?: Date; $lte?: Date };
}

function liveMatching(f: ApiKeyFilters): SQL | undefined {
  const r = f.revoked_at ?? {};
  return and(
    isNull(apiKeys.deleted_at),
    f.q ? ilike(apiKeys.title, containsPattern(f.q)) : undefined,
    f.id ? inArray(apiKeys.id, f.id) : undefined,
    f.title ? inArray(apiKeys.title, f.title) : undefined,
    // Secret keys keep only a hash, so a token filter matches either form.
    f.token ? or(inArray(apiKeys.token, f.token), inArray(apiKeys.token_hash, f.token.map(hashToken))) : undefined,
    f.type ? eq(apiKeys.type, f.type) : undefined,
    r.$gt ? gt(apiKeys.revoked_at, r.$gt) : undefined,
    r.$gte ? gte(apiKeys.revoked_at, r.$gte) : undefined,
    r.$lt ? lt(apiKeys.revoked_at, r.$lt) : undefined,
    r.$lte ? lte(apiKeys.revoked_at, r.$lte) : undefined,
  );
}

export function listApiKeyRows(db: Executor, filters: ApiKeyFilters, page: Page): Promise<ApiKeyRow[]> {
  return rowsPage(db, apiKeys, liveMatching(filters), page);
}

export function countApiKeys(db: Executor, filters: ApiKeyFilters): Promise<number> {
  return countRows(db, apiKeys, liveMatching(filters));
}

export function findLiveApiKey(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
  return findLiveRow(db, apiKeys, id);
}

/** Locks the live key row, so a revoke, a delete and link changes of one key run one after the other. */
export function lockLiveApiKey(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
  return findLiveRow(db, apiKeys, id, 'update');
}

export function insertApiKey(db: Executor, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  return insertRow(db, apiKeys, row);
}

export async function updateApiKeyRow(
  db: Executor,
  id: string,
  patch: Partial<Pick<ApiKeyRow, 'title' | 'revoked_at' | 'revoked_by' | 'deleted_at'>> & { updated_at: Date },
): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set(patch)
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.deleted_at)))
    .returning();
  return row;
}

/** The live channels of several keys in one query (a list page never queries per key). */
export async function channelsOfKeys(
  db: Executor,
  keyIds: string[],
): Promise<{ api_key_id: string; id: string; name: string }[]> {
  if (keyIds.length === 0) return [];
  return db
    .select({ api_key_id: apiKeySalesChannels.api_key_id, id: salesChannels.id, name: salesChannels.name })
    .from(apiKeySalesChannels)
    .innerJoin(
      salesChannels,
      and(eq(salesChannels.id, apiKeySalesChannels.sales_channel_id), isNull(salesChannels.deleted_at)),
    )
    .where(inArray(apiKeySalesChannels.api_key_id, keyIds))
    .orderBy(asc(salesChannels.id));
}

/**
 * Which of these ids are live sales channels. The share lock makes a concurrent channel delete
 * wait for this transaction, and then remove the links it made.
 */
export function findLiveChannelIds(db: Executor, ids: string[]): Promise<string[]> {
  return liveIdsAmong(db, salesChannels, ids, 'share');
}

export async function linkChannels(db: Executor, keyId: string, channelIds: string[]): Promise<void> {
  if (channelIds.length === 0) return;
  await db
    .insert(apiKeySalesChannels)
    .values(channelIds.map((sales_channel_id) => ({ api_key_id: keyId, sales_channel_id })))
    .onConflictDoNothing();
}

export async function unlinkChannels(db: Executor, keyId: string, channelIds: string[]): Promise<void> {
  if (channelIds.length === 0) return;
  await db
    .delete(apiKeySalesChannels)
    .where(and(eq(apiKeySalesChannels.api_key_id, keyId), inArray(apiKeySalesChannels.sales_channel_id, channelIds)));
}

export async function deleteKeyLinks(db: Executor, keyId: string): Promise<void> {
  await db.delete(apiKeySalesChannels).where(eq(apiKeySalesChannels.api_key_id, keyId));
}
