import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';

export interface DaySales {
  day: string;
  currency_code: string;
  orders: number;
  revenue: number;
}

/** Orders and revenue per day and currency since `since`, days cut at the operator's UTC offset; canceled orders left out. */
export function salesByDay(db: Executor, since: Date, offsetMinutes: number): Promise<DaySales[]> {
  const shift = sql`make_interval(mins => ${offsetMinutes}::int)`;
  return rows<DaySales>(
    db,
    sql`select to_char(date_trunc('day', created_at + ${shift}), 'YYYY-MM-DD') as day, currency_code,
               count(*)::int as orders, coalesce(sum(total), 0)::float8 as revenue
          from orders where created_at >= ${since} and status <> 'canceled'
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
  return rows<LowStock>(
    db,
    sql`select v.id as variant_id, v.title as variant_title, v.sku, p.id as product_id, p.title as product_title, v.inventory_quantity
          from product_variants v join products p on p.id = v.product_id
         where v.deleted_at is null and p.deleted_at is null and v.manage_inventory and not v.allow_backorder
           and v.inventory_quantity <= ${threshold}
         order by v.inventory_quantity, v.id limit ${max}`,
  );
}

export async function unreadNotifications(db: Executor): Promise<number> {
  const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from notifications where read_at is null`);
  return row.n;
}
