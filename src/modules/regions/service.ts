import { executor, inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { withJsonDates } from '../../platform/db/json-rows.ts';
import { isUniqueViolation, pgError } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { countryInfo, isCountryCode, isCurrencyCode, type CountryInfo } from './iso-codes.ts';
import * as q from './queries.ts';
import type { RegionJson } from './region-json.ts';

export interface RegionCountry extends CountryInfo {
  region_id: string;
}

export interface Region {
  id: string;
  name: string;
  currency_code: string;
  automatic_taxes: boolean;
  is_tax_inclusive: boolean;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  countries: RegionCountry[];
}

export interface RegionInput {
  name?: string;
  currency_code?: string;
  countries?: string[];
  automatic_taxes?: boolean;
  is_tax_inclusive?: boolean;
  payment_providers?: string[];
  metadata?: Record<string, unknown> | null;
}

export type { RegionFilters } from './queries.ts';

/** The built-in provider; the others a region may name are those payment-provider plugins run. */
const SYSTEM_PROVIDER = 'pp_system_default';

/** Whether a payment provider id is running in this shop (the routes ask the app's provider registry). */
export type KnownPaymentProvider = (id: string) => boolean;

/** The ids a region offers as stored (empty: only the built-in manual provider, as before any was chosen). */
export const regionPaymentProviders = (ctx: Ctx, regionId: string) => q.listRegionProviderIds(executor(ctx), regionId);

/** A region as the admin reads it: with the providers it names and whether each runs now. */
export async function withPaymentProviders(ctx: Ctx, region: Region, known: KnownPaymentProvider) {
  const ids = await regionPaymentProviders(ctx, region.id);
  return { ...region, payment_providers: ids.map((id) => ({ id, is_enabled: id === SYSTEM_PROVIDER || known(id) })) };
}

function toRegion(row: q.RegionRow, countries: string[]): Region {
  const { deleted_at: _deleted, ...rest } = row;
  return { ...rest, countries: countries.map((iso) => ({ ...countryInfo(iso), region_id: row.id })) };
}

async function withCountries(db: Executor, rows: q.RegionRow[]): Promise<Region[]> {
  const links = await q.countriesOfRegions(
    db,
    rows.map((r) => r.id),
  );
  const byRegion = new Map<string, string[]>();
  for (const l of links) byRegion.set(l.region_id, [...(byRegion.get(l.region_id) ?? []), l.iso_2]);
  return rows.map((r) => toRegion(r, byRegion.get(r.id) ?? []));
}

export async function listRegions(
  ctx: Ctx,
  filters: q.RegionFilters,
  page: Page,
): Promise<{ regions: Region[]; count: number }> {
  const db = executor(ctx);
  // Medusa's filter convention: a single comma-separated value is a list.
  const split = (v?: string[]) => v?.flatMap((s) => s.split(',')).filter(Boolean);
  const f = { q: filters.q || undefined, id: split(filters.id), currency_code: split(filters.currency_code) };
  // Sequential on purpose: `db` may be a caller's transaction, which runs one query at a time.
  const rows = page.limit === 0 ? [] : await q.listRegionRows(db, f, page);
  return { regions: await withCountries(db, rows), count: await q.countRegions(db, f) };
}

/** The live region, or null: carts and pricing call this and word their own errors. */
export async function getRegion(ctx: Ctx, id: string): Promise<Region | null> {
  const db = executor(ctx);
  const row = await q.findLiveRegion(db, id);
  return row ? (await withCountries(db, [row]))[0] : null;
}

/** For a new cart: the given live region, else the store's default (the first live region by id); null when neither. */
export async function findRegionOrDefault(ctx: Ctx, regionId: string | undefined): Promise<Region | null> {
  return regionFromJson(await q.findRegionOrDefaultJson(executor(ctx), regionId));
}

/** A region read inside another module's statement (region-json.ts), as getRegion answers it. */
export function regionFromJson(json: RegionJson | null): Region | null {
  if (!json) return null;
  return toRegion(withJsonDates<q.RegionRow>(json.region), json.countries);
}

/** The live region a country (alpha-2, any case) belongs to, or null. */
export async function findRegionByCountry(ctx: Ctx, iso2: string): Promise<Region | null> {
  const id = await q.findRegionIdByCountry(executor(ctx), iso2.toLowerCase());
  return id ? getRegion(ctx, id) : null;
}

/** For the routes: the admin and store surfaces word their 404s differently (as Medusa does). */
export async function retrieveRegion(ctx: Ctx, id: string, surface: 'admin' | 'store'): Promise<Region> {
  const region = await getRegion(ctx, id);
  if (!region)
    throw surface === 'admin'
      ? errors.notFound('region_not_found', { id })
      : errors.notFound('store_region_not_found', { id });
  return region;
}

/** Checks what the body schema cannot: code lists, duplicates, providers. Returns the countries lower-cased. */
function validate(input: RegionInput, known: KnownPaymentProvider): string[] | undefined {
  if (input.currency_code !== undefined && !isCurrencyCode(input.currency_code)) {
    throw errors.invalid('region_currency_invalid', { value: input.currency_code });
  }
  const bad = input.payment_providers?.filter((p) => p !== SYSTEM_PROVIDER && !known(p)) ?? [];
  if (bad.length) throw errors.invalid('payment_providers_not_found', { ids: bad.join(', ') });
  if (!input.countries) return undefined;
  const unknown = input.countries.filter((c) => !isCountryCode(c));
  if (unknown.length) {
    throw errors.invalid('region_countries_invalid', { values: quoted(unknown) });
  }
  const codes = input.countries.map((c) => c.toLowerCase());
  const dupes = [...new Set(codes.filter((c, i) => codes.indexOf(c) !== i))];
  if (dupes.length) throw errors.invalid('region_countries_repeated', { values: quoted(dupes) });
  return codes;
}

const quoted = (codes: string[]) => codes.map((c) => `"${c}"`).join(', ');
const alreadyAssigned = (codes: string[]) => errors.invalid('region_countries_taken', { codes: quoted(codes) });

/**
 * Assigns countries to a region inside the caller's transaction. The check gives the readable
 * error; the primary key on iso_2 still decides when two transactions race for a country.
 */
async function assignCountries(tctx: TxCtx, regionId: string, codes: string[]): Promise<void> {
  const taken = await q.findAssignedCountries(tctx.tx, codes);
  if (taken.length) throw alreadyAssigned(taken);
  try {
    await q.insertRegionCountries(tctx.tx, regionId, codes);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const key = /\(iso_2\)=\(([^)]*)\)/.exec(pgError(err).detail ?? '')?.[1];
    throw alreadyAssigned(key ? [key] : codes);
  }
}

export async function createRegion(
  ctx: Ctx,
  input: RegionInput & { name: string; currency_code: string },
  known: KnownPaymentProvider = () => false,
): Promise<Region> {
  const codes = validate(input, known) ?? [];
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const row = await q.insertRegion(tctx.tx, {
      id: newId('reg'),
      name: input.name,
      currency_code: input.currency_code,
      automatic_taxes: input.automatic_taxes ?? true,
      is_tax_inclusive: input.is_tax_inclusive ?? false,
      metadata: input.metadata ?? null,
      created_at: now,
      updated_at: now,
    });
    await assignCountries(tctx, row.id, codes);
    if (input.payment_providers) await q.replaceRegionProviders(tctx.tx, row.id, input.payment_providers);
    return toRegion(row, [...codes].sort());
  });
}

/** Changes the given fields; `countries`, when given, replaces the region's whole set. */
export async function updateRegion(
  ctx: Ctx,
  id: string,
  input: RegionInput,
  known: KnownPaymentProvider = () => false,
): Promise<Region> {
  const codes = validate(input, known);
  return inTx(ctx, async (tctx) => {
    if (!(await q.lockLiveRegion(tctx.tx, id))) throw errors.notFound('region_not_found', { id });
    const { countries: _c, payment_providers: _p, ...fields } = input;
    const row = await q.updateRegionRow(tctx.tx, id, { ...fields, updated_at: tctx.clock.now() });
    if (input.payment_providers) await q.replaceRegionProviders(tctx.tx, id, input.payment_providers);
    if (codes) {
      await q.deleteRegionCountries(tctx.tx, id);
      await assignCountries(tctx, id, codes);
      return toRegion(row, [...codes].sort());
    }
    return (await withCountries(tctx.tx, [row]))[0];
  });
}

/** Soft-deletes the region and frees its countries in the same transaction. */
export async function deleteRegion(ctx: Ctx, id: string): Promise<{ id: string; object: 'region'; deleted: true }> {
  return inTx(ctx, async (tctx) => {
    if (!(await q.lockLiveRegion(tctx.tx, id))) throw errors.notFound('region_not_found', { id });
    await q.softDeleteRegionRow(tctx.tx, id, tctx.clock.now());
    await q.deleteRegionCountries(tctx.tx, id);
    return { id, object: 'region' as const, deleted: true as const };
  });
}
