import { and, asc, eq, isNull, lte, not, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import { notifications } from '../notifications/tables.ts';
import { orderBuckets as b } from '../orders/count-tables.ts';
import { orders as o } from '../orders/tables.ts';
import { products, productVariants } from '../products/tables.ts';

// Other modules' tables, read through their drizzle tables: a renamed column fails the type check here.

export interface DaySales {
  day: string;
  currency_code: string;
  orders: number;
  revenue: number;
}

/**
 * Orders and revenue per day and currency since `since` (a local midnight), days cut at the
 * operator's UTC offset; canceled orders left out. An offset of whole quarter hours (every time
 * zone in use) adds up the orders module's quarter-hour buckets (order_buckets: at most 2,880
 * rows per currency and slot for 30 days, however many orders); any other offset reads the
 * orders of the window.
 */
export function salesByDay(db: Executor, since: Date, offsetMinutes: number): Promise<DaySales[]> {
  const shift = sql`make_interval(mins => ${offsetMinutes}::int)`;
  if (offsetMinutes % 15 === 0)
    return rows<DaySales>(
      db,
      sql`select to_char(date_trunc('day', ${b.bucket} + ${shift}), 'YYYY-MM-DD') as day, ${b.currency_code},
                 sum(${b.sold})::int as orders, sum(${b.revenue})::float8 as revenue
            from ${b} where ${b.bucket} >= ${since}
           group by 1, 2 having sum(${b.sold}) > 0 order by 1, 2`,
    );
  return rows<DaySales>(
    db,
    sql`select to_char(date_trunc('day', ${o.created_at} + ${shift}), 'YYYY-MM-DD') as day, ${o.currency_code},
               count(*)::int as orders, coalesce(sum(${o.total}), 0)::float8 as revenue
          from ${o} where ${o.created_at} >= ${since} and ${o.status} <> 'canceled'
         group by 1, 2 order by 1, 2`,
  );
}

export interface LowStock {
  variant_id: string;
  variant_title: string;
  sku: string | null;
  product_id: string;
  product_title: string;
  inventory_quantity: number;
}

/** Live variants that can run out (managed, no backorder) with at most `threshold` left, fewest first. */
export function lowStockVariants(db: Executor, threshold: number, max: number): Promise<LowStock[]> {
  const v = productVariants;
  return db
    .select({
      variant_id: v.id,
      variant_title: v.title,
      sku: v.sku,
      product_id: products.id,
      product_title: products.title,
      inventory_quantity: v.inventory_quantity,
    })
    .from(v)
    .innerJoin(products, eq(products.id, v.product_id))
    .where(
      and(
        isNull(v.deleted_at),
        isNull(products.deleted_at),
        eq(v.manage_inventory, true),
        not(v.allow_backorder),
        lte(v.inventory_quantity, threshold),
      ),
    )
    .orderBy(asc(v.inventory_quantity), asc(v.id))
    .limit(max);
}

export async function unreadNotifications(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(isNull(notifications.read_at));
  return row.n;
}
