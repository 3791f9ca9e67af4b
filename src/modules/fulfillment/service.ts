import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { splitList } from '../sales-channels/service.ts';
import * as q from './queries.ts';
import type { CreateServiceZoneInput, GeoZoneInputT, UpdateServiceZoneInput } from './schema.ts';

export const DEFAULT_PROFILE = 'sp_default';

/* ---------- shipping profiles ---------- */

/** The default profile exists on every shop (the migration makes it; a start after a wipe makes it again). */
export async function ensureDefaultProfile(db: Executor, at: Date): Promise<void> {
  await q.insertDefaultProfile(db, DEFAULT_PROFILE, at);
}

export async function listProfiles(ctx: Ctx, f: q.ProfileFilters, page: Page) {
  const filters = { ...f, id: splitList(f.id), name: splitList(f.name), type: splitList(f.type) };
  const [found, count] = await Promise.all([
    q.listProfileRows(ctx.db, filters, page),
    q.countProfiles(ctx.db, filters),
  ]);
  return { shipping_profiles: found, count };
}

export async function getProfile(db: Executor, id: string): Promise<q.ProfileRow> {
  const row = await q.findProfile(db, id);
  if (!row) throw errors.notFound('shipping_profile_not_found', { id });
  return row;
}

export async function createProfile(
  ctx: Ctx,
  input: { name: string; type: string; metadata?: Record<string, unknown> | null },
) {
  return inTx(ctx, async ({ tx, clock }) => {
    const at = clock.now();
    const id = newId('sp');
    await q.insertProfile(tx, {
      id,
      name: input.name.trim(),
      type: input.type,
      metadata: input.metadata ?? null,
      created_at: at,
      updated_at: at,
    });
    return getProfile(tx, id);
  });
}

export async function updateProfile(
  ctx: Ctx,
  id: string,
  input: { name?: string; type?: string; metadata?: Record<string, unknown> | null },
) {
  return inTx(ctx, async ({ tx, clock }) => {
    await getProfile(tx, id);
    await q.updateProfileRow(tx, id, { ...input, updated_at: clock.now() });
    return getProfile(tx, id);
  });
}

/** Refused for the default profile and for one still used by options or products. */
export async function deleteProfile(ctx: Ctx, id: string) {
  return inTx(ctx, async ({ tx, clock }) => {
    await getProfile(tx, id);
    if (id === DEFAULT_PROFILE) throw errors.notAllowed('shipping_profile_default');
    const used = await q.profileUsers(tx, id);
    if (used.options || used.products)
      throw errors.notAllowed('shipping_profile_in_use', {
        id,
        what: `${used.options} shipping option(s) and ${used.products} product(s)`,
      });
    const at = clock.now();
    await q.updateProfileRow(tx, id, { deleted_at: at, updated_at: at });
    return { id, object: 'shipping_profile' as const, deleted: true as const };
  });
}

/* ---------- fulfilment sets, service zones, geo zones ---------- */

function geoView(g: q.GeoRow) {
  return { ...g, postal_expression: g.postal_expression ?? null };
}

function zoneView(z: q.ZoneRow, geo: q.GeoRow[]) {
  const { deleted_at: _d, ...rest } = z;
  return { ...rest, geo_zones: geo.filter((g) => g.service_zone_id === z.id).map(geoView) };
}
export type ServiceZoneView = ReturnType<typeof zoneView>;

/** The sets of these locations, each with its zones and their geo zones (three queries for all). */
export async function setsWithZones(db: Executor, locationIds: string[]) {
  return withZones(db, await q.setsOfLocations(db, locationIds));
}

async function withZones(db: Executor, sets: q.SetRow[]) {
  const zones = await q.zonesOfSets(
    db,
    sets.map((s) => s.id),
  );
  const geo = await q.geoOfZones(
    db,
    zones.map((z) => z.id),
  );
  return sets.map(({ deleted_at: _d, ...s }) => ({
    ...s,
    service_zones: zones.filter((z) => z.fulfillment_set_id === s.id).map((z) => zoneView(z, geo)),
  }));
}
export type FulfillmentSetView = Awaited<ReturnType<typeof withZones>>[number];

export async function getSet(db: Executor, id: string): Promise<FulfillmentSetView> {
  const set = await q.findSet(db, id);
  if (!set) throw errors.notFound('fulfillment_set_not_found', { id });
  return (await withZones(db, [set]))[0];
}

/** `POST /admin/stock-locations/{id}/fulfillment-sets`: answers the location's id for its view. */
export async function createSet<T>(
  ctx: Ctx,
  locationId: string,
  input: { name: string; type: 'shipping' | 'pickup'; metadata?: Record<string, unknown> | null },
  after: (db: Executor) => Promise<T>,
): Promise<T> {
  return inTx(ctx, async ({ tx, clock }) => {
    if (!(await q.findLiveLocationId(tx, locationId)))
      throw errors.notFound('fulfillment_location_not_found', { id: locationId });
    const at = clock.now();
    await q.insertSet(tx, {
      id: newId('fuset'),
      name: input.name.trim(),
      type: input.type,
      location_id: locationId,
      metadata: input.metadata ?? null,
      created_at: at,
      updated_at: at,
    });
    return after(tx);
  });
}

/** Deletes the set with its zones and their shipping options (soft). */
export async function deleteSet(ctx: Ctx, id: string) {
  return inTx(ctx, async ({ tx, clock }) => {
    if (!(await q.findSet(tx, id, true))) throw errors.notFound('fulfillment_set_not_found', { id });
    await q.softDeleteSet(tx, id, clock.now());
    return { id, object: 'fulfillment_set' as const, deleted: true as const };
  });
}

function geoRow(zoneId: string, g: GeoZoneInputT, at: Date) {
  return {
    id: g.id ?? newId('fgz'),
    service_zone_id: zoneId,
    type: g.type,
    country_code: g.country_code.toLowerCase(),
    province_code: 'province_code' in g ? g.province_code.toLowerCase() : null,
    city: 'city' in g ? g.city : null,
    postal_expression: 'postal_expression' in g ? g.postal_expression : null,
    metadata: g.metadata ?? null,
    created_at: at,
    updated_at: at,
  };
}

async function zoneOfSet(db: Executor, setId: string, zoneId: string): Promise<q.ZoneRow> {
  const zone = await q.findZone(db, zoneId);
  if (!zone || zone.fulfillment_set_id !== setId) throw errors.notFound('service_zone_not_found', { id: zoneId });
  return zone;
}

async function lockSet(db: Executor, id: string): Promise<void> {
  if (!(await q.findSet(db, id, true))) throw errors.notFound('fulfillment_set_not_found', { id });
}

export async function createZone(ctx: Ctx, setId: string, input: CreateServiceZoneInput) {
  return inTx(ctx, async ({ tx, clock }) => {
    await lockSet(tx, setId);
    const at = clock.now();
    const id = newId('serzo');
    await q.insertZone(tx, {
      id,
      name: input.name.trim(),
      fulfillment_set_id: setId,
      metadata: input.metadata ?? null,
      created_at: at,
      updated_at: at,
    });
    await q.insertGeo(
      tx,
      (input.geo_zones ?? []).map((g) => geoRow(id, { ...g, id: undefined }, at)),
    );
    return getSet(tx, setId);
  });
}

export async function getZone(db: Executor, setId: string, zoneId: string): Promise<ServiceZoneView> {
  if (!(await q.findSet(db, setId))) throw errors.notFound('fulfillment_set_not_found', { id: setId });
  const zone = await zoneOfSet(db, setId, zoneId);
  return zoneView(zone, await q.geoOfZones(db, [zone.id]));
}

/**
 * `geo_zones` replaces the zone's list: an entry with the `id` of one of its geo zones updates
 * it, one without adds a geo zone, and those not named are removed (Medusa's rule).
 */
export async function updateZone(ctx: Ctx, setId: string, zoneId: string, input: UpdateServiceZoneInput) {
  return inTx(ctx, async ({ tx, clock }) => {
    await lockSet(tx, setId);
    await zoneOfSet(tx, setId, zoneId);
    const at = clock.now();
    const patch: Partial<q.ZoneRow> = { updated_at: at };
    if (input.name !== undefined) patch.name = input.name.trim();
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    await q.updateZoneRow(tx, zoneId, patch);
    if (input.geo_zones) {
      const current = new Set((await q.geoOfZones(tx, [zoneId])).map((g) => g.id));
      for (const g of input.geo_zones)
        if (g.id && !current.has(g.id)) throw errors.invalid('geo_zone_not_in_zone', { id: g.id, zone: zoneId });
      const kept = input.geo_zones.filter((g) => g.id).map((g) => g.id as string);
      await q.deleteGeoExcept(tx, zoneId, kept);
      for (const g of input.geo_zones.filter((x) => x.id)) {
        const { id: _id, created_at: _c, ...rest } = geoRow(zoneId, g, at);
        await q.updateGeoRow(tx, g.id as string, rest);
      }
      await q.insertGeo(
        tx,
        input.geo_zones.filter((g) => !g.id).map((g) => geoRow(zoneId, g, at)),
      );
    }
    return getSet(tx, setId);
  });
}

export async function deleteZone(ctx: Ctx, setId: string, zoneId: string) {
  return inTx(ctx, async ({ tx, clock }) => {
    await lockSet(tx, setId);
    await zoneOfSet(tx, setId, zoneId);
    await q.softDeleteZone(tx, zoneId, clock.now());
    return { id: zoneId, object: 'service_zone' as const, deleted: true as const, parent: await getSet(tx, setId) };
  });
}
