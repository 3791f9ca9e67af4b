import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { parseFields } from '../../platform/http/fields.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import { findStoreProductJson, listProductSummariesJson, listStoreProductsJson, type StoreRead } from './queries.ts';
import type { Static } from 'typebox';
import type { ProductSummary, StoreListFilters } from './schema.ts';

export type ProductSummaryJson = Static<typeof ProductSummary>;
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

function answer(read: StoreRead, regionId: string | undefined): string | null {
  if (!read.regionFound)
    throw errors.invalid(`Region with id ${regionId} not found when populating the pricing context`);
  return read.body;
}

/**
 * Store list as ready-to-send JSON text; with `region_id`, variants carry `calculated_price`.
 * `fields` is checked for syntax only: every product always carries every relation a storefront
 * reads (product-json.ts), so whatever it selects is already there, at no extra cost, and the
 * statement (prepared on PostgreSQL) is the same for every expression.
 */
export async function listStoreProducts(ctx: Ctx, scope: StoreScope, query: StoreListFilters): Promise<string> {
  parseFields(query.fields);
  const { q, id, handle, collection_id, category_id, tag_id, type_id, is_giftcard } = query;
  const filters = {
    ...{ q, id, handle, collection_id, category_id, tag_id, type_id, is_giftcard },
    channelIds: visibleChannels(scope, query.sales_channel_id),
  };
  return answer(
    await listStoreProductsJson(ctx.db, filters, pageOf(query, 50), query.region_id, ctx.amountUnits),
    query.region_id,
  )!;
}

export async function getStoreProduct(
  ctx: Ctx,
  scope: StoreScope,
  id: string,
  query: { region_id?: string; sales_channel_id?: string[]; fields?: string },
): Promise<string> {
  parseFields(query.fields);
  const channelIds = visibleChannels(scope, query.sales_channel_id);
  const body = answer(
    await findStoreProductJson(ctx.db, id, channelIds, query.region_id, ctx.amountUnits),
    query.region_id,
  );
  if (!body) throw productNotFound(id);
  return body;
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
