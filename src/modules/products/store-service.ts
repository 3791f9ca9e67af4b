import type { Ctx } from '../../platform/context.ts';
import type { Db } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { type Fields, parseFields, shapeEnvelope } from '../../platform/http/fields.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';
import type { Static } from 'typebox';
import { listProductSummariesJson } from './queries.ts';
import { assembleProduct } from './store-assembly.ts';
import type { StoreCache } from './store-cache.ts';
import { readStoreList, readStoreProduct, type StoreRows } from './store-queries.ts';
import { readSlicedStoreList, SLICED_ABOVE } from './store-slices.ts';
import type { ProductSummary, StoreListFilters } from './schema.ts';
import { productNotFound } from './service.ts';
import type { PriceListContext } from '../price-lists/store-prices.ts';
import { priceKey } from './store-price-key.ts';

export type ProductSummaryJson = Static<typeof ProductSummary>;

/**
 * Store visibility (Medusa's rules): published, live, linked to one of the publishable key's
 * channels, narrowed to `sales_channel_id` when given (which must lie within the key).
 */
function visibleChannels(scope: StoreScope, requested: string[] | undefined): string[] {
  if (!scope.salesChannelIds.length) throw errors.notAllowed('publishable_key_without_channel');
  if (!requested) return scope.salesChannelIds;
  if (requested.some((id) => !scope.salesChannelIds.includes(id))) {
    throw errors.invalid('sales_channel_not_in_key');
  }
  return requested;
}

/** The page's products as JSON texts (stored documents + live values), after the region check. */
function products(read: StoreRows, regionId: string | undefined, units: AmountUnits): string[] {
  if (!read.region_found) throw errors.invalid('pricing_region_not_found', { id: String(regionId) });
  const price =
    regionId && read.currency_code
      ? { currency: read.currency_code, taxInclusive: read.tax_inclusive === true }
      : undefined;
  return read.products.map((row) => assembleProduct(row, price, units));
}

/** The price list context of a read with a region (`calculated_price`): the shopper's groups, now. */
export const pricing = (ctx: Ctx, regionId: string | undefined, groups: string[]): PriceListContext | undefined =>
  regionId ? { groups, now: ctx.clock.now() } : undefined;

/**
 * The answer caches, and the key a repeat of this exact request is answered under (repeat-reads.ts).
 * `listing` keeps the answers that show no stock (store-cache.ts): they outlive the orders.
 */
export interface Caching {
  cache: StoreCache;
  listing?: StoreCache;
  repeat?: string;
}

/** Whether a product answer cut down by `fields` shows no stock: only named fields, none under `variants`. */
const showsNoStock = (fields: Fields) =>
  fields.selection?.kind === 'only' && !fields.selection.tree.all && !fields.selection.tree.children.has('variants');

/** A store answer as read, with the products it holds (what a stock move of one of them makes stale). */
interface Read {
  body: string | Buffer;
  products: readonly string[];
}

/**
 * `read` through the cache (store-cache.ts): the version is taken first, and the body read after
 * it, so a body kept for a version holds at least every change that version counts; it is kept
 * with its products, so a stock move lets go of it only when it holds one of them.
 */
async function cached(
  ctx: Ctx,
  caching: Caching | undefined,
  key: unknown[],
  read: (db: Db) => Promise<Read>,
  lists?: PriceListContext,
  stockFree = false,
): Promise<string | Buffer> {
  if (!caching) return (await read(ctx.db)).body;
  // Repeats (repeat-reads.ts) are looked up in the stock cache only: a listing answer goes the whole way.
  const listing = stockFree ? caching.listing : undefined;
  const cache = listing ?? caching.cache;
  const now = cache.current();
  const version = typeof now === 'number' ? now : await now;
  // With prices, the answer also depends on the shopper's groups and on which price lists' windows hold.
  const priced = lists ? await priceKey(ctx, cache, version, lists) : undefined;
  const k = JSON.stringify(priced ? [...key, priced.key] : key);
  const repeat = priced?.repeatable === false || listing ? undefined : caching.repeat;
  let body = cache.get(k, version);
  if (body === undefined) {
    const mark = cache.stockMark();
    // With read replicas: one that has everything this version counts, else the primary (read-routing.ts).
    const since = cache.since(k);
    const replica = ctx.catalogReplica?.(since);
    let got = await read(replica ?? ctx.db);
    // The replica was chosen before the answer's products were known: when the stock of one of
    // them moved later than it must have replayed, the answer is read again where that move is.
    const moved = replica ? cache.movedAt(got.products) : since;
    if (moved > since) got = await read(ctx.catalogReplica?.(moved) ?? ctx.db);
    body = typeof got.body === 'string' ? Buffer.from(got.body) : got.body;
    cache.set(k, body, version, { products: got.products, mark });
  }
  if (repeat) cache.remember(k, repeat, version);
  return body;
}

/**
 * `read`, shaped by `fields` when it asks for less than the full product (`fields=handle`: only
 * ids and handles). The default shape is the fast path: its text is never parsed; a shaped
 * answer is parsed once, cut down and kept in the cache under its own key like any other.
 */
function shaped(fields: Fields, read: (db: Db) => Promise<Read>): (db: Db) => Promise<Read> {
  if (!fields.selection) return read;
  return async (db) => {
    const full = await read(db);
    const text = typeof full.body === 'string' ? full.body : full.body.toString('utf8');
    const body = JSON.parse(text) as Record<string, unknown>;
    return { body: JSON.stringify(shapeEnvelope(body, fields.selection)), products: full.products };
  };
}

/**
 * Store list as ready-to-send JSON (text, or its UTF-8 bytes from the cache); with `region_id`, variants carry `calculated_price`.
 * Every product always carries every relation a storefront reads (product-json.ts), so a `fields`
 * that only adds (`*variants.calculated_price,+metadata`) is already answered, at no extra cost;
 * one that names plain fields (`fields=handle`) or removes some gets only those (see `shaped`). Every
 * list (the storefront's grid, search, product page and category pages alike) is served from the
 * stored documents (store-documents.ts), through the answer cache.
 */
export async function listStoreProducts(
  ctx: Ctx,
  scope: StoreScope,
  query: StoreListFilters,
  caching?: Caching,
  groups: string[] = [],
): Promise<string | Buffer> {
  const fields = parseFields(query.fields);
  const { q, id, handle, collection_id, category_id, tag_id, type_id, is_giftcard } = query;
  const channelIds = visibleChannels(scope, query.sales_channel_id);
  const page = pageOf(query, 50);
  const units = ctx.amountUnits ?? 'minor';
  const filters = { q, id, handle, collection_id, category_id, tag_id, type_id, is_giftcard, channelIds };
  const key = ['list', units, filters, page.limit, page.offset, query.region_id, fields.signature];
  const lists = pricing(ctx, query.region_id, groups);
  return cached(
    ctx,
    caching,
    key,
    shaped(fields, async (db) => {
      const tail = (total: number) => `],"count":${total},"limit":${page.limit},"offset":${page.offset}}`;
      if (page.limit > SLICED_ABOVE) {
        const render = (slice: StoreRows) => products(slice, query.region_id, units);
        const sliced = await readSlicedStoreList(db, filters, page, query.region_id, render, lists);
        render(sliced.head); // the region check, for an empty page too
        const parts = [Buffer.from('{"products":['), ...sliced.parts, Buffer.from(tail(sliced.head.total))];
        return { body: Buffer.concat(parts), products: sliced.ids };
      }
      const read = await readStoreList(db, filters, page, query.region_id, lists);
      const body = `{"products":[${products(read, query.region_id, units).join(',')}${tail(read.total)}`;
      return { body, products: read.products.map((p) => p.product_id) };
    }),
    lists,
    showsNoStock(fields),
  );
}

export async function getStoreProduct(
  ctx: Ctx,
  scope: StoreScope,
  id: string,
  query: { region_id?: string; sales_channel_id?: string[]; fields?: string },
  caching?: Caching,
  groups: string[] = [],
): Promise<string | Buffer> {
  const fields = parseFields(query.fields);
  const channelIds = visibleChannels(scope, query.sales_channel_id);
  const units = ctx.amountUnits ?? 'minor';
  const lists = pricing(ctx, query.region_id, groups);
  return cached(
    ctx,
    caching,
    ['product', units, id, channelIds, query.region_id, fields.signature],
    shaped(fields, async (db) => {
      const read = await readStoreProduct(db, id, channelIds, query.region_id, lists);
      const [body] = products(read, query.region_id, units);
      if (!body) throw productNotFound(id);
      return { body: `{"product":${body}}`, products: [id] };
    }),
    lists,
  );
}

/**
 * Products of collections or categories, grouped by their id. With a store scope, only what
 * the publishable key's channels sell; without one (admin), every live product. The store's
 * whole answer around them is kept in the listing cache (listing-answers.ts).
 */
export function productsByGroup(
  ctx: Ctx,
  by: 'collection' | 'category',
  groupIds: string[],
  scope?: StoreScope,
): Promise<Map<string, ProductSummaryJson[]>> {
  const channelIds = scope ? visibleChannels(scope, undefined) : undefined;
  // A miss of the kept answer reads on a replica only when it has what the cache's version counts.
  const db = scope && ctx.storeListing ? (ctx.catalogReplica?.(ctx.storeListing.changedAt) ?? ctx.db) : ctx.db;
  return listProductSummariesJson<ProductSummaryJson>(db, by, groupIds, channelIds);
}

declare module '../../platform/context.ts' {
  interface Ctx {
    /** The store's listing cache (store-cache.ts), set for store requests: categories and collections keep their products there. */
    storeListing?: StoreCache;
  }
}
