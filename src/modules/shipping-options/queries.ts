import { and, asc, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import { regions } from '../regions/tables.ts';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { shippingOptions } from './tables.ts';

/** An option with its region's currency (what its amount is in). */
export type ShippingOptionRow = typeof shippingOptions.$inferSelect & { currency_code: string };

const withCurrency = { ...getTableColumns(shippingOptions), currency_code: regions.currency_code };

const live = (regionId?: string): SQL | undefined =>
  and(isNull(shippingOptions.deleted_at), regionId ? eq(shippingOptions.region_id, regionId) : undefined);

export async function listOptionRows(
  db: Executor,
  regionId: string | undefined,
  page: Page,
): Promise<ShippingOptionRow[]> {
  return db
    .select(withCurrency)
    .from(shippingOptions)
    .innerJoin(regions, eq(regions.id, shippingOptions.region_id))
    .where(live(regionId))
    .orderBy(asc(shippingOptions.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countOptions(db: Executor, regionId: string | undefined): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(shippingOptions).where(live(regionId));
  return row.n;
}

export async function findLiveOption(db: Executor, id: string): Promise<ShippingOptionRow | undefined> {
  const [row] = await db
    .select(withCurrency)
    .from(shippingOptions)
    .innerJoin(regions, eq(regions.id, shippingOptions.region_id))
    .where(and(eq(shippingOptions.id, id), live()));
  return row;
}

export async function insertOption(db: Executor, row: typeof shippingOptions.$inferInsert): Promise<ShippingOptionRow> {
  await db.insert(shippingOptions).values(row);
  return (await findLiveOption(db, row.id))!;
}

export async function updateOptionRow(
  db: Executor,
  id: string,
  patch: Partial<typeof shippingOptions.$inferInsert>,
): Promise<ShippingOptionRow | undefined> {
  const [row] = await db
    .update(shippingOptions)
    .set(patch)
    .where(and(eq(shippingOptions.id, id), live()))
    .returning({ id: shippingOptions.id });
  return row ? findLiveOption(db, id) : undefined;
}

export async function softDeleteOption(db: Executor, id: string, at: Date): Promise<boolean> {
  const done = await db
    .update(shippingOptions)
    .set({ deleted_at: at, updated_at: at })
    .where(and(eq(shippingOptions.id, id), live()))
    .returning({ id: shippingOptions.id });
  return done.length > 0;
}
