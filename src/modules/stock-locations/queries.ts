import { and, asc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { type Executor, rows } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { inventoryLevels } from '../inventory/tables.ts';
import { salesChannels } from '../sales-channels/tables.ts';
import { listFilter } from '../../platform/db/list-filter.ts';
import {
  salesChannelStockLocations,
  stockLocationAddresses,
  stockLocationFulfillmentProviders,
  stockLocations,
} from './tables.ts';
import { countRows } from '../../platform/db/count-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

export type LocationRow = typeof stockLocations.$inferSelect;
export type AddressRow = typeof stockLocationAddresses.$inferSelect;
export type ChannelRow = typeof salesChannels.$inferSelect;

export interface LocationFilters {
  q?: string;
  id?: string[];
  name?: string[];
  address_id?: string[];
  sales_channel_id?: string[];
}

function liveMatching(f: LocationFilters): SQL | undefined {
  return and(
    isNull(stockLocations.deleted_at),
    f.q ? ilike(stockLocations.name, containsPattern(f.q)) : undefined,
    f.id ? inArray(stockLocations.id, f.id) : undefined,
    f.name ? inArray(stockLocations.name, f.name) : undefined,
    f.address_id ? inArray(stockLocations.address_id, f.address_id) : undefined,
    listFilter(f.sales_channel_id, (ids) =>
      inArray(
        stockLocations.id,
        sql`(select stock_location_id from sales_channel_stock_locations where sales_channel_id in ${ids})`,
      ),
    ),
  );
}

export async function listLocationRows(
  db: Executor,
  f: LocationFilters,
  page: Page,
): Promise<{ location: LocationRow; address: AddressRow | null }[]> {
  return db
    .select({ location: stockLocations, address: stockLocationAddresses })
    .from(stockLocations)
    .leftJoin(stockLocationAddresses, eq(stockLocationAddresses.id, stockLocations.address_id))
    .where(liveMatching(f))
    .orderBy(asc(stockLocations.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countLocations(db: Executor, f: LocationFilters): Promise<number> {
  return countRows(db, stockLocations, liveMatching(f));
}

/** The live location, row-locked when `lock` (a delete or a link change waits for the other). */
export async function findLiveLocation(db: Executor, id: string, lock = false): Promise<LocationRow | undefined> {
  const q = db
    .select()
    .from(stockLocations)
    .where(and(eq(stockLocations.id, id), isNull(stockLocations.deleted_at)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function findAddress(db: Executor, id: string): Promise<AddressRow | undefined> {
  const [row] = await db.select().from(stockLocationAddresses).where(eq(stockLocationAddresses.id, id));
  return row;
}

export async function insertLocation(db: Executor, row: typeof stockLocations.$inferInsert): Promise<LocationRow> {
  const [created] = await db.insert(stockLocations).values(row).returning();
  return created;
}

export async function updateLocationRow(
  db: Executor,
  id: string,
  patch: Partial<Pick<LocationRow, 'name' | 'address_id' | 'metadata'>> & { updated_at: Date },
): Promise<void> {
  await db.update(stockLocations).set(patch).where(eq(stockLocations.id, id));
}

export async function softDeleteLocation(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(stockLocations).set({ deleted_at: at, updated_at: at }).where(eq(stockLocations.id, id));
}

export async function insertAddress(db: Executor, row: typeof stockLocationAddresses.$inferInsert): Promise<void> {
  await db.insert(stockLocationAddresses).values(row);
}

export async function updateAddressRow(
  db: Executor,
  id: string,
  patch: Partial<typeof stockLocationAddresses.$inferInsert>,
): Promise<void> {
  await db.update(stockLocationAddresses).set(patch).where(eq(stockLocationAddresses.id, id));
}

/** The live channels of these locations, in each channel's id order. */
export async function channelsOfLocations(
  db: Executor,
  locationIds: string[],
): Promise<{ location_id: string; channel: ChannelRow }[]> {
  if (locationIds.length === 0) return [];
  return db
    .select({ location_id: salesChannelStockLocations.stock_location_id, channel: salesChannels })
    .from(salesChannelStockLocations)
    .innerJoin(salesChannels, eq(salesChannels.id, salesChannelStockLocations.sales_channel_id))
    .where(and(inArray(salesChannelStockLocations.stock_location_id, locationIds), isNull(salesChannels.deleted_at)))
    .orderBy(asc(salesChannels.id));
}

/** Which of these ids are live channels (share-locked: a channel delete waits for the link). */
export async function findLiveChannelIds(db: Executor, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: salesChannels.id })
    .from(salesChannels)
    .where(and(inArray(salesChannels.id, ids), isNull(salesChannels.deleted_at)))
    .for('share');
  return found.map((r) => r.id);
}

/** Links channels to a location, each after the channel's other locations (its allocation order). */
export async function linkChannels(db: Executor, locationId: string, channelIds: string[], at: Date): Promise<void> {
  if (channelIds.length === 0) return;
  await db.execute(sql`insert into sales_channel_stock_locations (sales_channel_id, stock_location_id, rank, created_at)
    select c.id, ${locationId}, coalesce((select max(rank) + 1 from sales_channel_stock_locations x where x.sales_channel_id = c.id), 0), ${at.toISOString()}::timestamptz
    from unnest(${sql.param(channelIds)}::text[]) as c(id) order by c.id
    on conflict do nothing`);
}

export async function unlinkChannels(db: Executor, locationId: string, channelIds: string[]): Promise<void> {
  if (channelIds.length === 0) return;
  await db
    .delete(salesChannelStockLocations)
    .where(
      and(
        eq(salesChannelStockLocations.stock_location_id, locationId),
        inArray(salesChannelStockLocations.sales_channel_id, channelIds),
      ),
    );
}

export async function deleteLocationChannelLinks(db: Executor, locationId: string): Promise<void> {
  await db.delete(salesChannelStockLocations).where(eq(salesChannelStockLocations.stock_location_id, locationId));
}

/** A location's levels go with it (as in Medusa); the variants selling its stock follow by trigger. */
export async function deleteLocationLevels(db: Executor, locationId: string): Promise<void> {
  await db.delete(inventoryLevels).where(eq(inventoryLevels.location_id, locationId));
}

export async function locationHasReservations(db: Executor, locationId: string): Promise<boolean> {
  const found = await rows<{ x: number }>(
    db,
    sql`select 1 as x from ${inventoryLevels} where ${inventoryLevels.location_id} = ${locationId} and ${inventoryLevels.reserved_quantity} > 0 limit 1`,
  );
  return found.length > 0;
}

export async function linkProviders(db: Executor, locationId: string, providerIds: string[], at: Date): Promise<void> {
  if (providerIds.length === 0) return;
  await db
    .insert(stockLocationFulfillmentProviders)
    .values(providerIds.map((provider_id) => ({ stock_location_id: locationId, provider_id, created_at: at })))
    .onConflictDoNothing();
}

export async function unlinkProviders(db: Executor, locationId: string, providerIds: string[]): Promise<void> {
  if (providerIds.length === 0) return;
  await db
    .delete(stockLocationFulfillmentProviders)
    .where(
      and(
        eq(stockLocationFulfillmentProviders.stock_location_id, locationId),
        inArray(stockLocationFulfillmentProviders.provider_id, providerIds),
      ),
    );
}

export async function deleteLocationProviderLinks(db: Executor, locationId: string): Promise<void> {
  await db
    .delete(stockLocationFulfillmentProviders)
    .where(eq(stockLocationFulfillmentProviders.stock_location_id, locationId));
}

/** The providers linked to each location, in id order, for a page of locations at once. */
export async function providersOfLocations(
  db: Executor,
  locationIds: string[],
): Promise<{ stock_location_id: string; provider_id: string }[]> {
  if (locationIds.length === 0) return [];
  return db
    .select({
      stock_location_id: stockLocationFulfillmentProviders.stock_location_id,
      provider_id: stockLocationFulfillmentProviders.provider_id,
    })
    .from(stockLocationFulfillmentProviders)
    .where(inArray(stockLocationFulfillmentProviders.stock_location_id, locationIds))
    .orderBy(asc(stockLocationFulfillmentProviders.provider_id));
}
