import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { preparedRows, textArray } from '../../platform/db/prepared.ts';
import { from, rendered, type RowOf, selectList, tableAs } from '../../platform/db/typed-sql.ts';
import { cartAs } from './queries.ts';
import { prices, productSalesChannels, products, productVariants } from '../products/tables.ts';

const v = tableAs(productVariants, 'v');
const p = tableAs(products, 'p');
const l = tableAs(productSalesChannels, 'l');
const pr = tableAs(prices, 'pr');

/**
 * What a cart needs to know about a variant to sell it: where it may be sold, its price, its
 * stock, for a cart's `currency` and `channelId` (text expressions: parameters, or a cart's
 * columns when read beside the cart).
 */
const sellableFields = (currency: SQL, channelId: SQL) => ({
  id: v.id,
  product_id: v.product_id,
  title: v.title,
  sku: v.sku,
  manage_inventory: v.manage_inventory,
  allow_backorder: v.allow_backorder,
  inventory_quantity: v.inventory_quantity,
  product_title: p.title,
  product_subtitle: p.subtitle,
  product_handle: p.handle,
  thumbnail: p.thumbnail,
  /** Variant and product live, product published. */
  live: sql<boolean>`(${v.deleted_at} is null and ${p.deleted_at} is null and ${p.status} = 'published')`,
  in_channel: sql<boolean>`(${channelId} is null or exists (
      select 1 from ${from(l)} where ${l.product_id} = ${p.id} and ${l.sales_channel_id} = ${channelId}))`,
  /** Price in the cart's currency (minor units), null when there is none. */
  price: sql<number | null>`(select ${pr.amount} from ${from(pr)} where ${pr.variant_id} = ${v.id}
      and ${pr.currency_code} = ${currency} and ${pr.min_quantity} is null and ${pr.max_quantity} is null)`,
});

export type SellableVariant = RowOf<ReturnType<typeof sellableFields>>;

/**
 * The sellable state of variants `ids` (a text[] expression). Reads the catalog tables directly
 * (the products module has no transaction-safe lookup of this shape), read-only: stock changes
 * only through checkout's stock write.
 */
function sellableVariantsQuery(ids: SQL, list: SQL): SQL<SellableVariant> {
  return sql<SellableVariant>`select ${list} from unnest(${ids}) x(id) ${VARIANT_AND_PRODUCT}`;
}

// Driven by the ids, each table read by primary key in a LATERAL that `offset 0` keeps from
// being flattened: without statistics the planner would otherwise hash-join whole tables.
const VARIANT_AND_PRODUCT =
  rendered(sql`cross join lateral (select * from ${from(v)} where ${v.id} = x.id offset 0) ${v}
        cross join lateral (select * from ${from(p)} where ${p.id} = ${v.product_id} offset 0) ${p}`);

/** One statement for all variants of a request. */
export async function findSellableVariants(
  db: Executor,
  ids: string[],
  currency: string,
  channelId: string | null,
): Promise<SellableVariant[]> {
  if (ids.length === 0) return [];
  return preparedRows<SellableVariant>(
    db,
    sellableVariantsQuery(textArray(ids), selectList(sellableFields(sql`${currency}::text`, sql`${channelId}::text`))),
  );
}

/**
 * The same, as one JSON array for a statement that reads the cart row aliased `c` (its currency
 * and channel) beside it: checkout locks a cart and reads the variants a change needs at once.
 */
export function sellableVariantsOfCart(ids: string[]): SQL<SellableVariant[]> {
  const query = sellableVariantsQuery(textArray(ids), OF_CART);
  return sql<SellableVariant[]>`(select coalesce(json_agg(s), '[]'::json) from (${query}) s)`;
}

const OF_CART = rendered(selectList(sellableFields(sql`${cartAs.currency_code}`, sql`${cartAs.sales_channel_id}`)));
