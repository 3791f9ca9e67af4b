import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { compareVersions, isVersion } from '../../../plugin-package/versions.ts';
import { feedItem, versionEntry } from './item-json.ts';
import * as q from './queries.ts';

export const FEED_DEFAULT_PER_PAGE = 20;
export const FEED_MAX_PER_PAGE = 100;
const MAX_UPDATE_ENTRIES = 500;

export interface FeedQuery {
  type?: string;
  search?: string;
  page?: number;
  per_page?: number;
}

/** `page` is 1-based; `per_page` defaults to 20 and is clamped to 100. Answers in the list envelope. */
export async function listFeed(ctx: Ctx, query: FeedQuery) {
  const limit = Math.min(query.per_page ?? FEED_DEFAULT_PER_PAGE, FEED_MAX_PER_PAGE);
  const offset = ((query.page ?? 1) - 1) * limit;
  const filters = { publishedOnly: true, type: query.type, search: query.search?.trim() || undefined };
  const [items, count] = await Promise.all([
    q.listItemRows(ctx.db, filters, { limit, offset }),
    q.countItems(ctx.db, filters),
  ]);
  const latest = new Map(
    (
      await q.latestVersionRows(
        ctx.db,
        items.map((i) => i.id),
        true,
      )
    ).map((v) => [v.item_id, v]),
  );
  return { products: items.map((i) => feedItem(i, latest.get(i.id)!)), count, limit, offset };
}

async function publishedItem(ctx: Ctx, marketplaceId: string): Promise<q.ItemRow> {
  const [item] = await q.findItemsByMarketplaceIds(ctx.db, [marketplaceId], true);
  if (!item) throw errors.notFound(`Marketplace item ${marketplaceId} not found`);
  return item;
}

/** One item with every version (newest first) and its full description. */
export async function getFeedProduct(ctx: Ctx, marketplaceId: string) {
  const item = await publishedItem(ctx, marketplaceId);
  const versions = await q.listVersionRows(ctx.db, [item.id], true);
  return {
    ...feedItem(item, versions[0]),
    changelog_url: item.changelog_url,
    versions: versions.map((v) => versionEntry(v, item.changelog_url)),
  };
}

/**
 * Where a changelog is when the vendor gave none: the item's own feed page, which lists every
 * version (an update entry's changelog_url is always a string, so a shop never checks for null).
 */
function productUrl(publicUrl: string, marketplaceId: string): string {
  return `${publicUrl}/store/marketplace/feed/${marketplaceId}`;
}

/** `versions` as sent: a JSON object of marketplace_id → installed version. */
function parseInstalled(raw: string): Map<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw errors.invalid(
      `Invalid request (query): Field 'versions' must be a JSON object of marketplace_id to version`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.invalid(
      `Invalid request (query): Field 'versions' must be a JSON object of marketplace_id to version`,
    );
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_UPDATE_ENTRIES)
    throw errors.invalid(`Invalid request (query): Field 'versions' may name at most ${MAX_UPDATE_ENTRIES} items`);
  for (const [id, version] of entries) {
    if (typeof version !== 'string' || !isVersion(version)) {
      throw errors.invalid(
        `Invalid request (query): version of ${id} in 'versions' must be dotted numeric, got ${JSON.stringify(version)}`,
      );
    }
  }
  return new Map(entries as [string, string][]);
}

/** Items whose newest published version is numerically above the installed one (1.10.0 > 1.9.9). */
export async function listUpdates(ctx: Ctx, publicUrl: string, rawVersions: string) {
  const installed = parseInstalled(rawVersions);
  const items = await q.findItemsByMarketplaceIds(ctx.db, [...installed.keys()], true);
  const latest = new Map(
    (
      await q.latestVersionRows(
        ctx.db,
        items.map((i) => i.id),
        true,
      )
    ).map((v) => [v.item_id, v]),
  );
  const updates = items
    .map((item) => ({ item, current: installed.get(item.marketplace_id)!, newest: latest.get(item.id)! }))
    .filter(({ current, newest }) => compareVersions(newest.version, current) > 0)
    .map(({ item, current, newest }) => ({
      marketplace_id: item.marketplace_id,
      current,
      latest: newest.version,
      changelog_url: newest.changelog_url ?? item.changelog_url ?? productUrl(publicUrl, item.marketplace_id),
    }));
  return { updates: updates.sort((a, b) => (a.marketplace_id < b.marketplace_id ? -1 : 1)) };
}
