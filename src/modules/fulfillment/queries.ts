import { and, asc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { columnNames } from '../../platform/db/typed-sql.ts';
import { products } from '../products/tables.ts';
import { shippingOptions as so } from '../shipping-options/tables.ts';
import { stockLocations } from '../stock-locations/tables.ts';
import { fulfillmentSets, geoZones, serviceZones, shippingProfiles } from './tables.ts';
import { countRows } from '../../platform/db/count-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

export type ProfileRow = typeof shippingProfiles.$inferSelect;
export type SetRow = typeof fulfillmentSets.$inferSelect;
export type ZoneRow = typeof serviceZones.$inferSelect;
export type GeoRow = typeof geoZones.$inferSelect;

export interface ProfileFilters {
  q?: string;
  id?: string[];
  name?: string[];
  type?: string[];
}

/** `[]` (a filter given empty) matches nothing, never `in ()`. */
const within = (col: Parameters<typeof inArray>[0], list: string[] | undefined): SQL | undefined =>
  list === undefined ? undefined : list.length ? inArray(col, list) : sql`false`;

function profileWhere(f: ProfileFilters): SQL | undefined {
  return and(
    isNull(shippingProfiles.deleted_at),
    f.q ? ilike(shippingProfiles.name, containsPattern(f.q)) : undefined,
    within(shippingProfiles.id, f.id),
    within(shippingProfiles.name, f.name),
    within(shippingProfiles.type, f.type),
  );
}

export async function listProfileRows(db: Executor, f: ProfileFilters, page: Page): Promise<ProfileRow[]> {
  if (page.limit === 0) return [];
  return db
    .select()
    .from(shippingProfiles)
    .where(profileWhere(f))
    .orderBy(asc(shippingProfiles.created_at), asc(shippingProfiles.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countProfiles(db: Executor, f: ProfileFilters): Promise<number> {
  return countRows(db, shippingProfiles, profileWhere(f));
}

export async function findProfile(db: Executor, id: string): Promise<ProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(shippingProfiles)
    .where(and(eq(shippingProfiles.id, id), isNull(shippingProfiles.deleted_at)));
  return row;
}

export async function insertProfile(db: Executor, row: typeof shippingProfiles.$inferInsert): Promise<void> {
  await db.insert(shippingProfiles).values(row);
}

export async function insertDefaultProfile(db: Executor, id: string, at: Date): Promise<void> {
  await db
    .insert(shippingProfiles)
    .values({ id, name: 'Default Shipping Profile', type: 'default', created_at: at, updated_at: at })
    .onConflictDoNothing();
}

export async function updateProfileRow(db: Executor, id: string, patch: Partial<ProfileRow>): Promise<void> {
  await db.update(shippingProfiles).set(patch).where(eq(shippingProfiles.id, id));
}

/** What still points at a profile: live options and products. */
export async function profileUsers(db: Executor, id: string): Promise<{ options: number; products: number }> {
  const [row] = await rows<{ options: number | string; products: number | string }>(
    db,
    sql`select
      (select count(*)::int from ${so} where ${so.shipping_profile_id} = ${id} and ${so.deleted_at} is null) as options,
      (select count(*)::int from ${products} where ${products.shipping_profile_id} = ${id} and ${products.deleted_at} is null) as products`,
  );
  return { options: Number(row.options), products: Number(row.products) };
}

export async function findLiveLocationId(db: Executor, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: stockLocations.id })
    .from(stockLocations)
    .where(and(eq(stockLocations.id, id), isNull(stockLocations.deleted_at)));
  return row?.id;
}

export async function setsOfLocations(db: Executor, locationIds: string[]): Promise<SetRow[]> {
  if (!locationIds.length) return [];
  return db
    .select()
    .from(fulfillmentSets)
    .where(and(inArray(fulfillmentSets.location_id, locationIds), isNull(fulfillmentSets.deleted_at)))
    .orderBy(asc(fulfillmentSets.created_at), asc(fulfillmentSets.id));
}

export async function findSet(db: Executor, id: string, lock = false): Promise<SetRow | undefined> {
  const q = db
    .select()
    .from(fulfillmentSets)
    .where(and(eq(fulfillmentSets.id, id), isNull(fulfillmentSets.deleted_at)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function insertSet(db: Executor, row: typeof fulfillmentSets.$inferInsert): Promise<void> {
  await db.insert(fulfillmentSets).values(row);
}

export async function softDeleteSet(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(fulfillmentSets).set({ deleted_at: at, updated_at: at }).where(eq(fulfillmentSets.id, id));
  await softDeleteZonesWhere(db, eq(serviceZones.fulfillment_set_id, id), at);
}

/** Zones go with their options (soft) and geo zones. */
async function softDeleteZonesWhere(db: Executor, where: SQL, at: Date): Promise<void> {
  const gone = await db
    .update(serviceZones)
    .set({ deleted_at: at, updated_at: at })
    .where(and(where, isNull(serviceZones.deleted_at)))
    .returning({ id: serviceZones.id });
  const ids = gone.map((z) => z.id);
  if (!ids.length) return;
  await db.execute(sql`update ${so} set ${columnNames(so.deleted_at)} = ${at}, ${columnNames(so.updated_at)} = ${at}
    where ${so.deleted_at} is null and ${so.service_zone_id} in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  await db.delete(geoZones).where(inArray(geoZones.service_zone_id, ids));
}

export async function softDeleteZone(db: Executor, id: string, at: Date): Promise<void> {
  await softDeleteZonesWhere(db, eq(serviceZones.id, id), at);
}

export async function zonesOfSets(db: Executor, setIds: string[]): Promise<ZoneRow[]> {
  if (!setIds.length) return [];
  return db
    .select()
    .from(serviceZones)
    .where(and(inArray(serviceZones.fulfillment_set_id, setIds), isNull(serviceZones.deleted_at)))
    .orderBy(asc(serviceZones.created_at), asc(serviceZones.id));
}

export async function findZone(db: Executor, id: string): Promise<ZoneRow | undefined> {
  const [row] = await db
    .select()
    .from(serviceZones)
    .where(and(eq(serviceZones.id, id), isNull(serviceZones.deleted_at)));
  return row;
}

export async function insertZone(db: Executor, row: typeof serviceZones.$inferInsert): Promise<void> {
  await db.insert(serviceZones).values(row);
}

export async function updateZoneRow(db: Executor, id: string, patch: Partial<ZoneRow>): Promise<void> {
  await db.update(serviceZones).set(patch).where(eq(serviceZones.id, id));
}

export async function geoOfZones(db: Executor, zoneIds: string[]): Promise<GeoRow[]> {
  if (!zoneIds.length) return [];
  return db
    .select()
    .from(geoZones)
    .where(inArray(geoZones.service_zone_id, zoneIds))
    .orderBy(asc(geoZones.created_at), asc(geoZones.id));
}

export async function insertGeo(db: Executor, rows: (typeof geoZones.$inferInsert)[]): Promise<void> {
  if (rows.length) await db.insert(geoZones).values(rows);
}

export async function deleteGeoExcept(db: Executor, zoneId: string, keep: string[]): Promise<void> {
  await db.delete(geoZones).where(
    and(
      eq(geoZones.service_zone_id, zoneId),
      keep.length
        ? sql`${geoZones.id} not in (${sql.join(
            keep.map((k) => sql`${k}`),
            sql`, `,
          )})`
        : undefined,
    ),
  );
}

export async function updateGeoRow(db: Executor, id: string, patch: Partial<GeoRow>): Promise<void> {
  await db.update(geoZones).set(patch).where(eq(geoZones.id, id));
}

/** The zone a region's flat options live in (made on first use, with its set; see the migration). */
export async function regionZone(db: Executor, regionId: string, at: Date): Promise<string> {
  const [row] = await rows<{ id: string }>(
    db,
    sql`select fulfillment_region_zone(${regionId}, ${at.toISOString()}::timestamptz) as id`,
  );
  return row.id;
}
