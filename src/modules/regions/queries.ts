import { and, asc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import { countRows, findLiveRow, rowsPage } from '../../platform/db/live-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';
import { preparedRows } from '../../platform/db/prepared.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { regionJson, type RegionJson } from './region-json.ts';
import { regionCountries, regionPaymentProviders, regions } from './tables.ts';

export type RegionRow = typeof regions.$inferSelect;
export type RegionCountryRow = typeof regionCountries.$inferSelect;

export interface RegionFilters {
  q?: string;
  id?: string[];
  currency_code?: string[];
}

function liveMatching(f: RegionFilters): SQL | undefined {
  return and(
    isNull(regions.deleted_at),
    f.q ? ilike(regions.name, containsPattern(f.q)) : undefined,
    f.id ? inArray(regions.id, f.id) : undefined,
    f.currency_code ? inArray(regions.currency_code, f.currency_code) : undefined,
  );
}

export function listRegionRows(db: Executor, filters: RegionFilters, page: Page): Promise<RegionRow[]> {
  return rowsPage(db, regions, liveMatching(filters), page);
}

export function countRegions(db: Executor, filters: RegionFilters): Promise<number> {
  return countRows(db, regions, liveMatching(filters));
}

/** The given live region, else the first live region by id (the store's default), with its countries. */
export async function findRegionOrDefaultJson(db: Executor, regionId: string | undefined): Promise<RegionJson | null> {
  const id =
    regionId === undefined
      ? sql`(select id from regions where deleted_at is null order by id limit 1)`
      : sql`${regionId}`;
  // Prepared: every new cart asks (two statement texts: with and without an id).
  const [row] = await preparedRows<{ region: RegionJson | null }>(db, sql`select ${regionJson(id)} as region`);
  return row.region;
}

export function findLiveRegion(db: Executor, id: string): Promise<RegionRow | undefined> {
  return findLiveRow(db, regions, id);
}

/** Locks the live region row, so an update and a delete of the same region run one after the other. */
export function lockLiveRegion(db: Executor, id: string): Promise<RegionRow | undefined> {
  return findLiveRow(db, regions, id, 'update');
}

/** The countries of several regions in one query (a list page never queries per region). */
export async function countriesOfRegions(db: Executor, regionIds: string[]): Promise<RegionCountryRow[]> {
  if (regionIds.length === 0) return [];
  return db
    .select()
    .from(regionCountries)
    .where(inArray(regionCountries.region_id, regionIds))
    .orderBy(asc(regionCountries.iso_2));
}

/** Which of these countries already belong to a region (rows exist only for live regions). */
export async function findAssignedCountries(db: Executor, iso2s: string[]): Promise<string[]> {
  if (iso2s.length === 0) return [];
  const found = await db
    .select({ iso_2: regionCountries.iso_2 })
    .from(regionCountries)
    .where(inArray(regionCountries.iso_2, iso2s))
    .orderBy(asc(regionCountries.iso_2));
  return found.map((r) => r.iso_2);
}

export async function findRegionIdByCountry(db: Executor, iso2: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: regions.id })
    .from(regionCountries)
    .innerJoin(regions, eq(regions.id, regionCountries.region_id))
    .where(and(eq(regionCountries.iso_2, iso2), isNull(regions.deleted_at)))
    .limit(1);
  return row?.id;
}

export function insertRegion(db: Executor, row: typeof regions.$inferInsert): Promise<RegionRow> {
  return insertRow(db, regions, row);
}

export async function updateRegionRow(
  db: Executor,
  id: string,
  patch: Partial<Omit<typeof regions.$inferInsert, 'id' | 'created_at'>>,
): Promise<RegionRow> {
  const [updated] = await db.update(regions).set(patch).where(eq(regions.id, id)).returning();
  return updated;
}

export async function softDeleteRegionRow(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(regions).set({ deleted_at: now, updated_at: now }).where(eq(regions.id, id));
}

export async function insertRegionCountries(db: Executor, regionId: string, iso2s: string[]): Promise<void> {
  if (iso2s.length === 0) return;
  await db.insert(regionCountries).values(iso2s.map((iso_2) => ({ iso_2, region_id: regionId })));
}

export async function deleteRegionCountries(db: Executor, regionId: string): Promise<void> {
  await db.delete(regionCountries).where(eq(regionCountries.region_id, regionId));
}

export async function listRegionProviderIds(db: Executor, regionId: string): Promise<string[]> {
  const found = await db
    .select({ id: regionPaymentProviders.provider_id })
    .from(regionPaymentProviders)
    .where(eq(regionPaymentProviders.region_id, regionId))
    .orderBy(asc(regionPaymentProviders.provider_id));
  return found.map((r) => r.id);
}

export async function replaceRegionProviders(db: Executor, regionId: string, providerIds: string[]): Promise<void> {
  await db.delete(regionPaymentProviders).where(eq(regionPaymentProviders.region_id, regionId));
  if (providerIds.length)
    await db
      .insert(regionPaymentProviders)
      .values([...new Set(providerIds)].map((provider_id) => ({ region_id: regionId, provider_id })));
}
