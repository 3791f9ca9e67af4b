import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { StoreScope } from '../../platform/http/types.ts';
import { findStoreProductJson } from './queries.ts';
import type { Static } from 'typebox';
import type { Variant } from './schema.ts';

/**
 * Medusa store routes a storefront calls on the side (`/store/product-variants`,
 * `/store/product-options`): answered from the same visibility rules as the catalog, off the hot
 * path. Variants come from the product JSON in minor units; the money hook converts the answer.
 */

type VariantView = Static<typeof Variant>;

const channelsOf = (scope: StoreScope) => {
  if (!scope.salesChannelIds.length)
    throw errors.notAllowed('Publishable key needs to have a sales channel configured');
  return scope.salesChannelIds;
};

const visible = (channelIds: string[]) => sql`p.deleted_at is null and p.status = 'published'
  and exists (select 1 from product_sales_channels l where l.product_id = p.id
              and l.sales_channel_id = any(${sql.param(channelIds)}::text[]))`;

const variantNotFound = (id: string) => errors.notFound(`Variant with id: ${id} was not found`);

export async function getStoreVariant(
  ctx: Ctx,
  scope: StoreScope,
  id: string,
  regionId: string | undefined,
): Promise<VariantView> {
  const [owner] = await rows<{ product_id: string }>(
    ctx.db,
    sql`select product_id from product_variants where id = ${id} and deleted_at is null`,
  );
  if (!owner) throw variantNotFound(id);
  const read = await findStoreProductJson(ctx.db, owner.product_id, channelsOf(scope), regionId, 'minor');
  if (!read.regionFound)
    throw errors.invalid(`Region with id ${regionId} not found when populating the pricing context`);
  const product = read.body ? (JSON.parse(read.body).product as { variants: VariantView[] }) : null;
  const variant = product?.variants.find((v) => v.id === id);
  if (!variant) throw variantNotFound(id);
  return variant;
}

/** `GET /store/product-variants`: by `id` or `product_id` (at most 100 products' worth), paged. */
export async function listStoreVariants(
  ctx: Ctx,
  scope: StoreScope,
  filters: { id?: string[]; product_id?: string[]; region_id?: string },
  page: Page,
): Promise<{ variants: VariantView[]; count: number }> {
  const found = await rows<{ id: string }>(
    ctx.db,
    sql`select v.id from product_variants v join products p on p.id = v.product_id
        where v.deleted_at is null and ${visible(channelsOf(scope))}
          ${filters.id ? sql`and v.id = any(${sql.param(filters.id)}::text[])` : sql``}
          ${filters.product_id ? sql`and v.product_id = any(${sql.param(filters.product_id)}::text[])` : sql``}
        order by v.product_id, v.variant_rank, v.id`,
  );
  const ids = found.slice(page.offset, page.offset + page.limit).map((r) => r.id);
  const variants: VariantView[] = [];
  for (const id of ids) variants.push(await getStoreVariant(ctx, scope, id, filters.region_id));
  return { variants, count: found.length };
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
