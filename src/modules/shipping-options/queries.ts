import { and, asc, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { regions } from '../regions/tables.ts';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { fulfillmentSets, serviceZones, shippingOptionPrices, shippingOptionRules } from '../fulfillment/tables.ts';
import { stockLocationFulfillmentProviders, stockLocations } from '../stock-locations/tables.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { shippingOptions } from './tables.ts';
import { countRows } from '../../platform/db/count-rows.ts';

/** An option with its region's currency (what the spec's `amount` is in; null for a zone's option). */
export type ShippingOptionRow = typeof shippingOptions.$inferSelect & { currency_code: string | null };
export type PriceRow = typeof shippingOptionPrices.$inferSelect & { currency_code: string };
export type RuleRow = typeof shippingOptionRules.$inferSelect;

const withCurrency = { ...getTableColumns(shippingOptions), currency_code: regions.currency_code };

export interface OptionFilters {
  region_id?: string;
  service_zone_id?: string;
  shipping_profile_id?: string;
  stock_location_id?: string;
}

const live = (f: OptionFilters = {}): SQL | undefined =>
  and(
    isNull(shippingOptions.deleted_at),
    f.region_id ? eq(shippingOptions.region_id, f.region_id) : undefined,
    f.service_zone_id ? eq(shippingOptions.service_zone_id, f.service_zone_id) : undefined,
    f.shipping_profile_id ? eq(shippingOptions.shipping_profile_id, f.shipping_profile_id) : undefined,
    f.stock_location_id ? inArray(shippingOptions.service_zone_id, sqlZonesOfLocation(f.stock_location_id)) : undefined,
  );

function sqlZonesOfLocation(locationId: string) {
  return sql`(select z.id from ${serviceZones} z join ${fulfillmentSets} s on s.id = z.fulfillment_set_id
    where s.location_id = ${locationId} and s.deleted_at is null and z.deleted_at is null)`;
}

export async function listOptionRows(db: Executor, f: OptionFilters, page: Page): Promise<ShippingOptionRow[]> {
  return db
    .select(withCurrency)
    .from(shippingOptions)
    .leftJoin(regions, eq(regions.id, shippingOptions.region_id))
    .where(live(f))
    .orderBy(asc(shippingOptions.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countOptions(db: Executor, f: OptionFilters): Promise<number> {
  return countRows(db, shippingOptions, live(f));
}

export async function findLiveOption(db: Executor, id: string): Promise<ShippingOptionRow | undefined> {
  const [row] = await db
    .select(withCurrency)
    .from(shippingOptions)
    .leftJoin(regions, eq(regions.id, shippingOptions.region_id))
    .where(and(eq(shippingOptions.id, id), live()));
  return row;
}

export async function insertOption(db: Executor, row: typeof shippingOptions.$inferInsert): Promise<void> {
  await db.insert(shippingOptions).values(row);
}

export async function updateOptionRow(
  db: Executor,
  id: string,
  patch: Partial<typeof shippingOptions.$inferInsert>,
): Promise<boolean> {
  const done = await db
    .update(shippingOptions)
    .set(patch)
    .where(and(eq(shippingOptions.id, id), live()))
    .returning({ id: shippingOptions.id });
  return done.length > 0;
}

export async function softDeleteOption(db: Executor, id: string, at: Date): Promise<boolean> {
  const done = await db
    .update(shippingOptions)
    .set({ deleted_at: at, updated_at: at })
    .where(and(eq(shippingOptions.id, id), live()))
    .returning({ id: shippingOptions.id });
  return done.length > 0;
}

/** Prices of these options; a region's price answers the region's currency. */
export async function pricesOf(db: Executor, optionIds: string[]): Promise<PriceRow[]> {
  if (!optionIds.length) return [];
  const found = await db
    .select({ ...getTableColumns(shippingOptionPrices), region_currency: regions.currency_code })
    .from(shippingOptionPrices)
    .leftJoin(regions, eq(regions.id, shippingOptionPrices.region_id))
    .where(inArray(shippingOptionPrices.shipping_option_id, optionIds))
    .orderBy(asc(shippingOptionPrices.created_at), asc(shippingOptionPrices.id));
  return found.map(({ region_currency, ...p }) => ({ ...p, currency_code: p.currency_code ?? region_currency ?? '' }));
}

export async function rulesOf(db: Executor, optionIds: string[]): Promise<RuleRow[]> {
  if (!optionIds.length) return [];
  return db
    .select()
    .from(shippingOptionRules)
    .where(inArray(shippingOptionRules.shipping_option_id, optionIds))
    .orderBy(asc(shippingOptionRules.created_at), asc(shippingOptionRules.id));
}

export async function replacePrices(
  db: Executor,
  optionId: string,
  rows: (typeof shippingOptionPrices.$inferInsert)[],
): Promise<void> {
  await db.delete(shippingOptionPrices).where(eq(shippingOptionPrices.shipping_option_id, optionId));
  if (rows.length) await db.insert(shippingOptionPrices).values(rows);
}

export async function replaceRules(
  db: Executor,
  optionId: string,
  rows: (typeof shippingOptionRules.$inferInsert)[],
): Promise<void> {
  await db.delete(shippingOptionRules).where(eq(shippingOptionRules.shipping_option_id, optionId));
  if (rows.length) await db.insert(shippingOptionRules).values(rows);
}

export async function insertRules(db: Executor, rows: (typeof shippingOptionRules.$inferInsert)[]): Promise<RuleRow[]> {
  if (!rows.length) return [];
  return db.insert(shippingOptionRules).values(rows).returning();
}

export async function updateRule(
  db: Executor,
  id: string,
  patch: Pick<RuleRow, 'attribute' | 'operator' | 'value' | 'updated_at'>,
): Promise<RuleRow | undefined> {
  const [row] = await db.update(shippingOptionRules).set(patch).where(eq(shippingOptionRules.id, id)).returning();
  return row;
}

export async function deleteRules(db: Executor, ids: string[]): Promise<void> {
  if (ids.length) await db.delete(shippingOptionRules).where(inArray(shippingOptionRules.id, ids));
}

/**
 * The location of a zone when it has provider links and `providerId` is not among them (the
 * provider does not ship from there); undefined when it may.
 */
export async function locationRefusingProvider(
  db: Executor,
  zoneId: string,
  providerId: string,
): Promise<string | undefined> {
  const [row] = await rows<{ location_id: string }>(
    db,
    sql`select s.location_id from ${serviceZones} z
      join ${fulfillmentSets} s on s.id = z.fulfillment_set_id
      join ${stockLocationFulfillmentProviders} l on l.stock_location_id = s.location_id
      where z.id = ${zoneId}
      group by s.location_id
      having not bool_or(l.provider_id = ${providerId})`,
  );
  return row?.location_id;
}

/** The live zone an option may be put in, with its set's type. */
export async function findLiveZone(db: Executor, id: string): Promise<{ id: string; set_type: string } | undefined> {
  const [row] = await db
    .select({ id: serviceZones.id, set_type: fulfillmentSets.type })
    .from(serviceZones)
    .innerJoin(fulfillmentSets, eq(fulfillmentSets.id, serviceZones.fulfillment_set_id))
    .where(and(eq(serviceZones.id, id), isNull(serviceZones.deleted_at), isNull(fulfillmentSets.deleted_at)));
  return row;
}

export async function liveRegionIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const found = await db
    .select({ id: regions.id })
    .from(regions)
    .where(and(inArray(regions.id, ids), isNull(regions.deleted_at)));
  return new Set(found.map((r) => r.id));
}

const l = tableAs(stockLocations, 'l');

/** The stock location an option's zone belongs to (through its set), with its name. */
export async function locationOfOption(
  db: Executor,
  optionId: string,
): Promise<{ id: string; name: string } | undefined> {
  const [row] = await rows<{ id: string; name: string }>(
    db,
    sql`select ${l.id}, ${l.name} from ${shippingOptions} o
      join ${serviceZones} z on z.id = o.service_zone_id
      join ${fulfillmentSets} s on s.id = z.fulfillment_set_id
      join ${from(l)} on ${l.id} = s.location_id
      where o.id = ${optionId}`,
  );
  return row;
}
