import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { preparedRows, textArray } from '../../platform/db/prepared.ts';

/** What a cart needs to know about a variant to sell it: where it may be sold, its price, its stock. */
export interface SellableVariant {
  id: string;
  product_id: string;
  title: string;
  sku: string | null;
  manage_inventory: boolean;
  allow_backorder: boolean;
  inventory_quantity: number;
  product_title: string;
  product_subtitle: string | null;
  product_handle: string;
  thumbnail: string | null;
  /** Variant and product live, product published. */
  live: boolean;
  in_channel: boolean;
  /** Price in the cart's currency (minor units), null when there is none. */
  price: number | null;
}

/**
 * The sellable state of variants `ids` (a text[] expression) for a cart's `currency` and
 * `channelId` (text expressions: parameters, or a cart's columns when read beside the cart). Reads
 * the catalog tables directly (the products module has no transaction-safe lookup of this shape),
 * read-only: stock changes only through checkout's stock write.
 */
function sellableVariantsQuery(ids: SQL, currency: SQL, channelId: SQL): SQL {
  // Driven by the ids, each table read by primary key in a LATERAL that `offset 0` keeps from
  // being flattened: without statistics the planner would otherwise hash-join whole tables.
  return sql`select v.id, v.product_id, v.title, v.sku, v.manage_inventory, v.allow_backorder, v.inventory_quantity,
          p.title as product_title, p.subtitle as product_subtitle, p.handle as product_handle, p.thumbnail,
          (v.deleted_at is null and p.deleted_at is null and p.status = 'published') as live,
          (${channelId} is null or exists (
            select 1 from product_sales_channels l where l.product_id = p.id and l.sales_channel_id = ${channelId}
          )) as in_channel,
          (select pr.amount from prices pr where pr.variant_id = v.id and pr.currency_code = ${currency}
            and pr.min_quantity is null and pr.max_quantity is null) as price
        from unnest(${ids}) x(id)
        cross join lateral (select * from product_variants v where v.id = x.id offset 0) v
        cross join lateral (select * from products p where p.id = v.product_id offset 0) p`;
}

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
    sellableVariantsQuery(textArray(ids), sql`${currency}::text`, sql`${channelId}::text`),
  );
}

/**
 * The same, as one JSON array for a statement that reads the cart row aliased `c` (its currency
 * and channel) beside it: checkout locks a cart and reads the variants a change needs at once.
 */
export function sellableVariantsOfCart(ids: string[]): SQL {
  const query = sellableVariantsQuery(textArray(ids), sql`c.currency_code`, sql`c.sales_channel_id`);
  return sql`(select coalesce(json_agg(s), '[]'::json) from (${query}) s)`;
}
