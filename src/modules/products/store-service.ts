import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { parseFields } from '../../platform/http/fields.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import type { RepeatKey } from '../../platform/http/repeat-reads.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';
import type { Static } from 'typebox';
import { listProductSummariesJson } from './queries.ts';
import { assembleProduct } from './store-assembly.ts';
import type { StoreCache } from './store-cache.ts';
import { readStoreList, readStoreProduct, type StoreRows } from './store-queries.ts';
import { readSlicedStoreList, SLICE } from './store-slices.ts';
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
  if (!scope.salesChannelIds.length)
    throw errors.notAllowed('Publishable key needs to have a sales channel configured');
  if (!requested) return scope.salesChannelIds;
  if (requested.some((id) => !scope.salesChannelIds.includes(id))) {
    throw errors.invalid('Requested sales channel is not part of the publishable key');
  }
  return requested;
}

/** The page's products as JSON texts (stored documents + live values), after the region check. */
function products(read: StoreRows, regionId: string | undefined, units: AmountUnits): string[] {
  if (!read.region_found)
    throw errors.invalid(`Region with id ${regionId} not found when populating the pricing context`);
  const price =
    regionId && read.currency_code
      ? { currency: read.currency_code, taxInclusive: read.tax_inclusive === true }
      : undefined;
  return read.products.map((row) => assembleProduct(row, price, units));
}

/** The price list context of a read with a region (`calculated_price`): the shopper's groups, now. */
export const pricing = (ctx: Ctx, regionId: string | undefined, groups: string[]): PriceListContext | undefined =>
  regionId ? { groups, now: ctx.clock.now() } : undefined;

/** The answer cache, and the key a repeat of this exact request is answered under (repeat-reads.ts). */
export interface Caching {
  cache: StoreCache;
  repeat?: RepeatKey;
}

/**
 * `read` through the cache (store-cache.ts): the version is taken first, and the body read after
 * it, so a body kept for a version holds at least every change that version counts.
 */
async function cached(
  ctx: Ctx,
  caching: Caching | undefined,
  key: unknown[],
  read: () => Promise<string | Buffer>,
  lists?: PriceListContext,
): Promise<string | Buffer> {
  if (!caching) return read();
  const { cache } = caching;
  const now = cache.current();
  const version = typeof now === 'number' ? now : await now;
  // With prices, the answer also depends on the shopper's groups and on which price lists' windows hold.
  const priced = lists ? await priceKey(ctx, cache, version, lists) : undefined;
  const k = JSON.stringify(priced ? [...key, priced.key] : key);
  const repeat = priced?.repeatable === false ? undefined : caching.repeat;
  let body = cache.get(k, version);
  if (body === undefined) {
    const text = await read();
    body = typeof text === 'string' ? Buffer.from(text) : text;
    cache.set(k, body, version);
  }
  if (repeat) cache.remember(k, repeat, version);
  return body;
}

/**
 * Store list as ready-to-send JSON (text, or its UTF-8 bytes from the cache); with `region_id`, variants carry `calculated_price`.
 * `fields` is checked for syntax only: every product always carries every relation a storefront
 * reads (product-json.ts), so whatever it selects is already there, at no extra cost. Every
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
  parseFields(query.fields);
  const { q, id, handle, collection_id, category_id, tag_id, type_id, is_giftcard } = query;
  const channelIds = visibleChannels(scope, query.sales_channel_id);
  const page = pageOf(query, 50);
  const units = ctx.amountUnits ?? 'minor';
  const filters = { q, id, handle, collection_id, category_id, tag_id, type_id, is_giftcard, channelIds };
  const key = ['list', units, filters, page.limit, page.offset, query.region_id];
  const lists = pricing(ctx, query.region_id, groups);
  return cached(
    ctx,
    caching,
    key,
    async () => {
      const tail = (total: number) => `],"count":${total},"limit":${page.limit},"offset":${page.offset}}`;
      if (page.limit > SLICE) {
        const render = (slice: StoreRows) => products(slice, query.region_id, units);
        const sliced = await readSlicedStoreList(ctx.db, filters, page, query.region_id, render, lists);
        render(sliced.head); // the region check, for an empty page too
        return Buffer.concat([Buffer.from('{"products":['), ...sliced.parts, Buffer.from(tail(sliced.head.total))]);
      }
      const read = await readStoreList(ctx.db, filters, page, query.region_id, lists);
      return `{"products":[${products(read, query.region_id, units).join(',')}${tail(read.total)}`;
    },
    lists,
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
  parseFields(query.fields);
  const channelIds = visibleChannels(scope, query.sales_channel_id);
  const units = ctx.amountUnits ?? 'minor';
  const lists = pricing(ctx, query.region_id, groups);
  return cached(
    ctx,
    caching,
    ['product', units, id, channelIds, query.region_id],
    async () => {
      const read = await readStoreProduct(ctx.db, id, channelIds, query.region_id, lists);
      const [body] = products(read, query.region_id, units);
      if (!body) throw productNotFound(id);
      return `{"product":${body}}`;
    },
    lists,
  );
}

/**
 * Products of collections or categories, grouped by their id. With a store scope, only what
 * the publishable key's channels sell; without one (admin), every live product.
 */
export function productsByGroup(
  ctx: Ctx,
  by: 'collection' | 'category',
  groupIds: string[],
  scope?: StoreScope,
): Promise<Map<string, ProductSummaryJson[]>> {
  const channelIds = scope ? visibleChannels(scope, undefined) : undefined;
  return listProductSummariesJson<ProductSummaryJson>(ctx.db, by, groupIds, channelIds);
}
