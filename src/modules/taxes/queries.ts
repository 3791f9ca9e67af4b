import { and, asc, count, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { pricePreferences, taxRateRules, taxRates, taxRegions } from './tables.ts';

export type TaxRegionRow = typeof taxRegions.$inferSelect;
export type TaxRateRow = typeof taxRates.$inferSelect;
export type TaxRuleRow = typeof taxRateRules.$inferSelect;
export type PricePreferenceRow = typeof pricePreferences.$inferSelect;

const liveRegion = (id: string) => and(eq(taxRegions.id, id), isNull(taxRegions.deleted_at));
const liveRate = (id: string) => and(eq(taxRates.id, id), isNull(taxRates.deleted_at));

export async function findRegion(db: Executor, id: string): Promise<TaxRegionRow | undefined> {
  return (await db.select().from(taxRegions).where(liveRegion(id)))[0];
}

export async function listRegionRows(db: Executor, where: SQL[], page: Page) {
  const filter = and(isNull(taxRegions.deleted_at), ...where);
  const rows = await db
    .select()
    .from(taxRegions)
    .where(filter)
    .orderBy(asc(taxRegions.created_at), asc(taxRegions.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ n }] = await db.select({ n: count() }).from(taxRegions).where(filter);
  return { rows, count: Number(n) };
}

export async function insertRegion(db: Executor, row: TaxRegionRow) {
  await db.insert(taxRegions).values(row);
}

export async function updateRegionRow(db: Executor, id: string, patch: Partial<TaxRegionRow>) {
  return (await db.update(taxRegions).set(patch).where(liveRegion(id)).returning())[0];
}

/** The region, its provinces, and their rates go together (Medusa cascades the same way). */
export async function softDeleteRegion(db: Executor, id: string, now: Date): Promise<boolean> {
  const gone = await db
    .update(taxRegions)
    .set({ deleted_at: now })
    .where(and(isNull(taxRegions.deleted_at), inArray(taxRegions.id, [id])))
    .returning({ id: taxRegions.id });
  if (!gone.length) return false;
  const children = await db
    .update(taxRegions)
    .set({ deleted_at: now })
    .where(and(isNull(taxRegions.deleted_at), eq(taxRegions.parent_id, id)))
    .returning({ id: taxRegions.id });
  await db
    .update(taxRates)
    .set({ deleted_at: now })
    .where(and(isNull(taxRates.deleted_at), inArray(taxRates.tax_region_id, [id, ...children.map((c) => c.id)])));
  return true;
}

export async function ratesOfRegions(db: Executor, regionIds: string[]): Promise<TaxRateRow[]> {
  if (!regionIds.length) return [];
  return db
    .select()
    .from(taxRates)
    .where(and(isNull(taxRates.deleted_at), inArray(taxRates.tax_region_id, regionIds)))
    .orderBy(asc(taxRates.created_at), asc(taxRates.id));
}

export async function rulesOfRates(db: Executor, rateIds: string[]): Promise<TaxRuleRow[]> {
  if (!rateIds.length) return [];
  return db.select().from(taxRateRules).where(inArray(taxRateRules.tax_rate_id, rateIds)).orderBy(asc(taxRateRules.id));
}

export async function findRate(db: Executor, id: string): Promise<TaxRateRow | undefined> {
  return (await db.select().from(taxRates).where(liveRate(id)))[0];
}

export async function listRateRows(db: Executor, where: SQL[], page: Page) {
  const filter = and(isNull(taxRates.deleted_at), ...where);
  const rows = await db
    .select()
    .from(taxRates)
    .where(filter)
    .orderBy(asc(taxRates.created_at), asc(taxRates.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ n }] = await db.select({ n: count() }).from(taxRates).where(filter);
  return { rows, count: Number(n) };
}

export async function insertRate(db: Executor, row: TaxRateRow) {
  await db.insert(taxRates).values(row);
}

export async function updateRateRow(db: Executor, id: string, patch: Partial<TaxRateRow>) {
  return (await db.update(taxRates).set(patch).where(liveRate(id)).returning())[0];
}

export async function softDeleteRate(db: Executor, id: string, now: Date): Promise<boolean> {
  return (
    (await db.update(taxRates).set({ deleted_at: now }).where(liveRate(id)).returning({ id: taxRates.id })).length > 0
  );
}

/** A region that already has a default rate gets the new default instead (one default per region). */
export async function clearDefault(db: Executor, regionId: string, now: Date) {
  await db
    .update(taxRates)
    .set({ is_default: false, updated_at: now })
    .where(and(eq(taxRates.tax_region_id, regionId), eq(taxRates.is_default, true), isNull(taxRates.deleted_at)));
}

export async function replaceRules(db: Executor, rateId: string, rules: TaxRuleRow[]) {
  await db.delete(taxRateRules).where(eq(taxRateRules.tax_rate_id, rateId));
  if (rules.length) await db.insert(taxRateRules).values(rules);
}

const livePref = (id: string) => and(eq(pricePreferences.id, id), isNull(pricePreferences.deleted_at));

export async function findPreference(db: Executor, id: string) {
  return (await db.select().from(pricePreferences).where(livePref(id)))[0];
}

export async function listPreferenceRows(db: Executor, where: SQL[], page: Page) {
  const filter = and(isNull(pricePreferences.deleted_at), ...where);
  const rows = await db
    .select()
    .from(pricePreferences)
    .where(filter)
    .orderBy(asc(pricePreferences.created_at), asc(pricePreferences.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ n }] = await db.select({ n: count() }).from(pricePreferences).where(filter);
  return { rows, count: Number(n) };
}

export async function insertPreference(db: Executor, row: PricePreferenceRow) {
  await db.insert(pricePreferences).values(row);
}

export async function updatePreferenceRow(db: Executor, id: string, patch: Partial<PricePreferenceRow>) {
  return (await db.update(pricePreferences).set(patch).where(livePref(id)).returning())[0];
}

export async function softDeletePreference(db: Executor, id: string, now: Date) {
  return (
    (
      await db
        .update(pricePreferences)
        .set({ deleted_at: now })
        .where(livePref(id))
        .returning({ id: pricePreferences.id })
    ).length > 0
  );
}

/** The live preferences of these currencies (lower-case codes), for the store's currencies. */
export async function currencyPreferences(db: Executor, codes: string[]) {
  if (!codes.length) return [];
  return db
    .select()
    .from(pricePreferences)
    .where(
      and(
        eq(pricePreferences.attribute, 'currency_code'),
        inArray(pricePreferences.value, codes),
        isNull(pricePreferences.deleted_at),
      ),
    );
}

/** A preference unless a live one holds its attribute and value already (two writers at once make one). */
export async function insertPreferenceIfMissing(db: Executor, row: PricePreferenceRow) {
  await db.insert(pricePreferences).values(row).onConflictDoNothing();
}
