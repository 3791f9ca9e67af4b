import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';

/**
 * Who is asking and when: what decides which price lists apply besides the variant, currency and
 * region. `groups` are the signed-in customer's group ids (sorted; none for a guest); `quantity`
 * is a cart line's (absent on catalog reads, where Medusa takes prices valid for one).
 */
export interface PriceListContext {
  groups: string[];
  now: Date;
  /** An integer expression (a cart line's quantity); absent on catalog reads. */
  quantity?: SQL;
}

/**
 * The price list price Medusa would pick for variant `variant` in currency `currency` and region
 * `regionId`, as one text `"<price id> <amount> <list id> <list type> <min qty> <max qty>"` (null for none): among the
 * prices of active lists whose window holds `now` and whose customer-group rule (if any) names one
 * of the customer's groups, the one with the most rules first (a region price before a
 * currency-wide one, a group list before an open one), then the lowest amount. A list or price with
 * a rule on anything else never applies here, as the context carries nothing else. One index lookup
 * on (variant_id, currency_code) per variant: the scalar-subquery shape of the store's live values.
 */
export function listPriceSql(variant: SQL, currency: SQL, regionId: SQL, c: PriceListContext): SQL {
  const q = c.quantity;
  // A bound left empty is open (Medusa compares both bounds, so an open one never matches a quantity there).
  const quantity =
    q === undefined
      ? sql`coalesce(lp.min_quantity, 1) <= 1`
      : sql`coalesce(lp.min_quantity, 0) <= ${q} and coalesce(lp.max_quantity, ${q}) >= ${q}`;
  return sql`(select lp.id || ' ' || lp.amount || ' ' || pl.id || ' ' || pl.type || ' '
        || coalesce(lp.min_quantity::text, '') || ' ' || coalesce(lp.max_quantity::text, '')
      from price_list_prices lp join price_lists pl on pl.id = lp.price_list_id
      where lp.variant_id = ${variant} and lp.currency_code = ${currency}
        and (lp.region_id is null or lp.region_id = ${regionId}) and (lp.rules - 'region_id') = '{}'::jsonb
        and ${quantity}
        and pl.status = 'active' and pl.deleted_at is null
        and (pl.starts_at is null or pl.starts_at <= ${c.now.toISOString()}::timestamptz)
        and (pl.ends_at is null or pl.ends_at >= ${c.now.toISOString()}::timestamptz)
        and (pl.group_ids is null or pl.group_ids && ${sql.param(c.groups)}::text[])
        and pl.rules_count = (case when pl.group_ids is null then 0 else 1 end)
      order by (case when lp.region_id is null then 0 else 1 end) + pl.rules_count desc, lp.amount, lp.id
      limit 1)`;
}

/** A price list price as `listPriceSql` writes it. */
export interface ListPrice {
  id: string;
  amount: number;
  price_list_id: string;
  price_list_type: 'sale' | 'override';
  min_quantity: number | null;
  max_quantity: number | null;
}

export function parseListPrice(text: string | null | undefined): ListPrice | undefined {
  if (!text) return undefined;
  const [id, amount, price_list_id, type, min, max] = text.split(' ');
  return {
    id,
    amount: Number(amount),
    price_list_id,
    price_list_type: type as ListPrice['price_list_type'],
    min_quantity: min ? Number(min) : null,
    max_quantity: max ? Number(max) : null,
  };
}

/**
 * The start and end times of active price lists, in ms, sorted: a cached store answer holds only
 * between two of them (a list begins or ends without any write). Read once per catalog version
 * of each cache (price list writes move it).
 */
export async function readWindowBoundaries(db: Executor): Promise<number[]> {
  const found = await rows<{ at: string | Date }>(
    db,
    sql`select starts_at as at from price_lists where status = 'active' and deleted_at is null and starts_at is not null
        union select ends_at from price_lists where status = 'active' and deleted_at is null and ends_at is not null`,
  );
  return found.map((r) => new Date(r.at).getTime()).sort((a, b) => a - b);
}

const memo = new WeakMap<object, { version: number; boundaries: Promise<number[]> }>();

/**
 * Where `nowMs` lies among the boundaries (how many have passed), for the cache key, and whether
 * one is still ahead (then an answer must not be kept for repeats that skip this check).
 */
export async function windowEpoch(
  db: Executor,
  cache: object,
  version: number,
  nowMs: number,
): Promise<{ epoch: number; ahead: boolean }> {
  let held = memo.get(cache);
  if (!held || held.version !== version) {
    held = { version, boundaries: readWindowBoundaries(db) };
    memo.set(cache, held);
  }
  const boundaries = await held.boundaries;
  const epoch = boundaries.filter((b) => b <= nowMs).length;
  return { epoch, ahead: epoch < boundaries.length };
}
