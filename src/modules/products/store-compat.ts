import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import { assembleVariant, splitVariants } from './store-assembly.ts';
import { readStoreVariantPage } from './store-queries.ts';
import type { Static } from 'typebox';
import type { Variant } from './schema.ts';

/**
 * Medusa store routes a storefront calls on the side (`/store/product-variants`,
 * `/store/product-options`): answered from the same visibility rules as the catalog, off the hot
 * path. Variants come from the product JSON in minor units; the money hook converts the answer.
 */

type VariantView = Static<typeof Variant>;

const channelsOf = (scope: StoreScope) => {
  if (!scope.salesChannelIds.length) throw errors.notAllowed('publishable_key_without_channel');
  return scope.salesChannelIds;
};

const visible = (channelIds: string[]) => sql`p.deleted_at is null and p.status = 'published'
  and exists (select 1 from product_sales_channels l where l.product_id = p.id
              and l.sales_channel_id = any(${sql.param(channelIds)}::text[]))`;

const variantNotFound = (id: string) => errors.notFound('variant_not_found', { id });

export async function getStoreVariant(
  ctx: Ctx,
  scope: StoreScope,
  id: string,
  regionId: string | undefined,
  groups: string[] = [],
): Promise<VariantView> {
  // The page read of the list (price lists included), narrowed to this one variant.
  const page = { limit: 1, offset: 0 };
  const [variant] = (await listStoreVariants(ctx, scope, { id: [id], region_id: regionId }, page, groups)).variants;
  if (!variant) throw variantNotFound(id);
  return variant;
}

/**
 * `GET /store/product-variants`: by `id` or `product_id` (at most 100 of each), paged in SQL. One
 * statement reads the page and its products' stored documents (store-queries.ts); each variant is
 * cut from its document as the product list writes it, and only the page's variants are parsed.
 */
export async function listStoreVariants(
  ctx: Ctx,
  scope: StoreScope,
  filters: { id?: string[]; product_id?: string[]; region_id?: string },
  page: Page,
  groups: string[] = [],
): Promise<{ variants: VariantView[]; count: number }> {
  const { id: ids, product_id: productIds, region_id: regionId } = filters;
  const lists = regionId ? { groups, now: ctx.clock.now() } : undefined;
  const channelIds = channelsOf(scope);
  const read = await readStoreVariantPage(ctx.db, { channelIds, ids, productIds }, page, regionId, lists);
  // As each variant was read by itself before: an unknown region fails a page with variants only.
  if (read.products.length && !read.region_found)
    throw errors.invalid('pricing_region_not_found', { id: String(regionId) });
  const price =
    regionId && read.currency_code
      ? { currency: read.currency_code, taxInclusive: read.tax_inclusive === true }
      : undefined;
  const variants: VariantView[] = [];
  for (const row of read.products) {
    const parts = splitVariants(row.variant_parts);
    const live = splitVariants(row.live);
    row.positions.split(',').forEach((position, i) => {
      variants.push(JSON.parse(assembleVariant(parts, Number(position) - 1, live[i], price)) as VariantView);
    });
  }
  return { variants, count: read.total };
}

/** `GET /store/product-options`: the options of visible products, with their values. */
export async function listStoreOptions(
  ctx: Ctx,
  scope: StoreScope,
  filters: { id?: string[]; product_id?: string[] },
  page: Page,
) {
  const where = sql`${visible(channelsOf(scope))}
    ${filters.id ? sql`and o.id = any(${sql.param(filters.id)}::text[])` : sql``}
    ${filters.product_id ? sql`and o.product_id = any(${sql.param(filters.product_id)}::text[])` : sql``}`;
  const options = await rows<{ id: string; title: string; product_id: string; values: string[] }>(
    ctx.db,
    sql`select o.id, o.title, o.product_id, o.values from product_options o join products p on p.id = o.product_id
        where ${where} order by o.product_id, o.rank, o.id limit ${page.limit} offset ${page.offset}`,
  );
  const [{ n }] = await rows<{ n: number }>(
    ctx.db,
    sql`select count(*)::int as n from product_options o join products p on p.id = o.product_id where ${where}`,
  );
  return {
    product_options: options.map((o) => ({
      ...o,
      values: o.values.map((value) => ({ value, option_id: o.id })),
    })),
    count: n,
  };
}
