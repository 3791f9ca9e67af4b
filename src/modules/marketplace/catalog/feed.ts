import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { compareVersions, isVersion } from '../../../plugin-package/versions.ts';
import { feedItem, versionEntry } from './item-json.ts';
import * as q from './queries.ts';
import { offeredVersions } from './rollout.ts';
import { itemStats } from '../ratings/ratings.ts';

export const FEED_DEFAULT_PER_PAGE = 20;
export const FEED_MAX_PER_PAGE = 100;
const MAX_UPDATE_ENTRIES = 500;

export interface FeedQuery {
  type?: string;
  search?: string;
  page?: number;
  per_page?: number;
  instance_id?: string;
}

/** Each item's versions this shop is offered (staged rollouts), newest first. */
async function offeredByItem(ctx: Ctx, items: q.ItemRow[], instanceId: string | undefined) {
  const rows = await q.listVersionRows(
    ctx.db,
    items.map((i) => i.id),
    true,
  );
  const byItem = new Map<string, q.VersionRow[]>();
  for (const v of rows) byItem.set(v.item_id, [...(byItem.get(v.item_id) ?? []), v]);
  return new Map(
    items.map((i) => [i.id, offeredVersions(byItem.get(i.id) ?? [], i.marketplace_id, instanceId)] as const),
  );
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
  const offered = await offeredByItem(ctx, items, query.instance_id);
  // An item whose every version is still rolling out to others shows its newest offered one; none: it is skipped.
  const stats = await itemStats(
    ctx,
    items.map((i) => i.id),
  );
  const products = items
    .filter((i) => offered.get(i.id)!.length)
    .map((i) => ({ ...feedItem(i, offered.get(i.id)![0]), ...stats(i.id) }));
  return { products, count, limit, offset };
}

async function publishedItem(ctx: Ctx, marketplaceId: string): Promise<q.ItemRow> {
  const [item] = await q.findItemsByMarketplaceIds(ctx.db, [marketplaceId], true);
  if (!item) throw errors.notFound('marketplace_item_not_found', { marketplace_id: marketplaceId });
  return item;
}

/** One item with every version (newest first) and its full description. */
export async function getFeedProduct(ctx: Ctx, marketplaceId: string, instanceId?: string) {
  const item = await publishedItem(ctx, marketplaceId);
  const versions = (await offeredByItem(ctx, [item], instanceId)).get(item.id)!;
  if (!versions.length) throw errors.notFound('marketplace_item_not_found', { marketplace_id: marketplaceId });
  return {
    ...feedItem(item, versions[0]),
    ...(await itemStats(ctx, [item.id]))(item.id),
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
    throw errors.invalid('marketplace_updates_versions_invalid');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.invalid('marketplace_updates_versions_invalid');
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_UPDATE_ENTRIES)
    throw errors.invalid('marketplace_updates_too_many', { max: MAX_UPDATE_ENTRIES });
  for (const [id, version] of entries) {
    if (typeof version !== 'string' || !isVersion(version)) {
      throw errors.invalid('marketplace_updates_version_invalid', { id, got: JSON.stringify(version) });
    }
  }
  return new Map(entries as [string, string][]);
}

/** Items whose newest published version is numerically above the installed one (1.10.0 > 1.9.9). */
export async function listUpdates(ctx: Ctx, publicUrl: string, rawVersions: string, instanceId?: string) {
  const installed = parseInstalled(rawVersions);
  const items = await q.findItemsByMarketplaceIds(ctx.db, [...installed.keys()], true);
  const offered = await offeredByItem(ctx, items, instanceId);
  const updates = items
    .map((item) => ({ item, current: installed.get(item.marketplace_id)!, newest: offered.get(item.id)![0] }))
    .filter(({ current, newest }) => newest && compareVersions(newest.version, current) > 0)
    .map(({ item, current, newest }) => ({
      marketplace_id: item.marketplace_id,
      current,
      latest: newest.version,
      changelog_url: newest.changelog_url ?? item.changelog_url ?? productUrl(publicUrl, item.marketplace_id),
    }));
  return { updates: updates.sort((a, b) => (a.marketplace_id < b.marketplace_id ? -1 : 1)) };
}
