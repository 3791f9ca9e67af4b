import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import { assembleProduct } from './store-assembly.ts';
import type { StoreCache } from './store-cache.ts';
import { readStoreList, readStoreProduct, type StoreRows } from './store-queries.ts';
import type { StoreListFilters } from './schema.ts';
import { productNotFound } from './service.ts';

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
function products(read: StoreRows, regionId: string | undefined): string[] {
  if (!read.region_found)
    throw errors.invalid(`Region with id ${regionId} not found when populating the pricing context`);
  const price =
    regionId && read.currency_code
      ? { currency: read.currency_code, taxInclusive: read.tax_inclusive === true }
      : undefined;
  return read.products.map((row) => assembleProduct(row, price));
}

/** `read` through the cache when there is one (embedded database; see store-cache.ts). */
async function cached(cache: StoreCache | undefined, key: unknown[], read: () => Promise<string>): Promise<string> {
  if (!cache) return read();
  const k = JSON.stringify(key);
  const hit = cache.get(k);
  if (hit !== undefined) return hit;
  const version = cache.version;
  const body = await read();
  cache.set(k, body, version);
  return body;
}

/** Store list as ready-to-send JSON text; with `region_id`, variants carry `calculated_price`. */
export async function listStoreProducts(
  ctx: Ctx,
  scope: StoreScope,
  query: StoreListFilters,
  cache?: StoreCache,
): Promise<string> {
  const filters = {
    q: query.q,
    id: query.id,
    handle: query.handle,
    channelIds: visibleChannels(scope, query.sales_channel_id),
  };
  const page = pageOf(query, 50);
  const key = [
    'list',
    filters.channelIds,
    filters.q,
    filters.id,
    filters.handle,
    page.limit,
    page.offset,
    query.region_id,
  ];
  return cached(cache, key, async () => {
    const read = await readStoreList(ctx.db, filters, page, query.region_id);
    const list = products(read, query.region_id);
    return `{"products" : [${list.join(', ')}], "count" : ${read.total}, "limit" : ${page.limit}, "offset" : ${page.offset}}`;
  });
}

export async function getStoreProduct(
  ctx: Ctx,
  scope: StoreScope,
  id: string,
  query: { region_id?: string; sales_channel_id?: string[] },
  cache?: StoreCache,
): Promise<string> {
  const channelIds = visibleChannels(scope, query.sales_channel_id);
  return cached(cache, ['product', id, channelIds, query.region_id], async () => {
    const [body] = products(await readStoreProduct(ctx.db, id, channelIds, query.region_id), query.region_id);
    if (!body) throw productNotFound(id);
    return `{"product" : ${body}}`;
  });
}
