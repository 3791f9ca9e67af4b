import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { itemsAtLocation, lockVariantsSelling } from '../inventory/locks.ts';
import { clearDefaultLocation } from '../inventory/defaults.ts';
import { splitList } from '../sales-channels/service.ts';
import {
  type AddressRow,
  type ChannelRow,
  type LocationFilters,
  type LocationRow,
  channelsOfLocations,
  countLocations,
  deleteLocationChannelLinks,
  deleteLocationLevels,
  deleteLocationProviderLinks,
  findAddress,
  findLiveChannelIds,
  findLiveLocation,
  insertAddress,
  insertLocation,
  linkChannels,
  listLocationRows,
  locationHasReservations,
  softDeleteLocation,
  unlinkChannels,
  updateAddressRow,
  updateLocationRow,
} from './queries.ts';
import type { AddressInput } from './schema.ts';

export interface LocationInput {
  name?: string;
  address?: AddressInput;
  address_id?: string | null;
  metadata?: Record<string, unknown> | null;
}

const notFound = (id: string) => errors.notFound('stock_location_not_found', { id });

function toView(location: LocationRow, address: AddressRow | null, channels?: ChannelRow[]) {
  const { deleted_at: _d, ...rest } = location;
  return {
    ...rest,
    address,
    ...(channels ? { sales_channels: channels.map(({ deleted_at: _x, ...c }) => c) } : {}),
  };
}
export type LocationView = ReturnType<typeof toView>;

/** Attaches each location's channels with one query for the whole page. */
async function withChannels(
  db: Executor,
  found: { location: LocationRow; address: AddressRow | null }[],
  want: boolean,
) {
  if (!want) return found.map((f) => toView(f.location, f.address));
  const links = await channelsOfLocations(
    db,
    found.map((f) => f.location.id),
  );
  return found.map((f) =>
    toView(
      f.location,
      f.address,
      links.filter((l) => l.location_id === f.location.id).map((l) => l.channel),
    ),
  );
}

export async function listLocations(ctx: Ctx, filters: LocationFilters, page: Page, channels: boolean) {
  const f = {
    ...filters,
    id: splitList(filters.id),
    name: splitList(filters.name),
    sales_channel_id: splitList(filters.sales_channel_id),
  };
  const [found, count] = await Promise.all([listLocationRows(ctx.db, f, page), countLocations(ctx.db, f)]);
  return { stock_locations: await withChannels(ctx.db, found, channels), count };
}

export async function getLocation(db: Executor, id: string, channels: boolean): Promise<LocationView> {
  const location = await findLiveLocation(db, id);
  if (!location) throw notFound(id);
  const address = location.address_id ? ((await findAddress(db, location.address_id)) ?? null) : null;
  const [view] = await withChannels(db, [{ location, address }], channels);
  return view;
}

function addressRow(input: AddressInput, at: Date) {
  return {
    address_1: input.address_1,
    address_2: input.address_2 ?? null,
    company: input.company ?? null,
    city: input.city ?? null,
    country_code: input.country_code.toLowerCase(),
    phone: input.phone ?? null,
    province: input.province ?? null,
    postal_code: input.postal_code ?? null,
    metadata: input.metadata ?? null,
    updated_at: at,
  };
}

/** `address` makes a new address row (or replaces the fields of the current one); `address_id` points at an existing one. */
async function resolveAddress(db: Executor, input: LocationInput, current: string | null, at: Date) {
  if (input.address) {
    if (current) {
      await updateAddressRow(db, current, addressRow(input.address, at));
      return current;
    }
    const id = newId('laddr');
    await insertAddress(db, { id, ...addressRow(input.address, at), created_at: at });
    return id;
  }
  if (input.address_id === undefined) return current;
  if (input.address_id !== null && !(await findAddress(db, input.address_id)))
    throw errors.invalid('stock_location_address_not_found', { id: input.address_id });
  return input.address_id;
}

export async function createLocation(ctx: Ctx, input: LocationInput & { name: string }, channels: boolean) {
  return inTx(ctx, async ({ tx, clock }) => {
    const at = clock.now();
    const id = newId('sloc');
    const address_id = await resolveAddress(tx, input, null, at);
    await insertLocation(tx, {
      id,
      name: input.name.trim(),
      address_id,
      metadata: input.metadata ?? null,
      created_at: at,
      updated_at: at,
    });
    return getLocation(tx, id, channels);
  });
}

export async function updateLocation(ctx: Ctx, id: string, input: LocationInput, channels: boolean) {
  return inTx(ctx, async ({ tx, clock }) => {
    const at = clock.now();
    const location = await findLiveLocation(tx, id, true);
    if (!location) throw notFound(id);
    const address_id = await resolveAddress(tx, input, location.address_id, at);
    await updateLocationRow(tx, id, {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
      address_id,
      updated_at: at,
    });
    return getLocation(tx, id, channels);
  });
}

/**
 * Soft delete, with the location's channel links and its levels (their stock leaves the
 * variants' numbers). A location still holding reservations cannot go: its orders need it.
 */
export async function deleteLocation(ctx: Ctx, id: string) {
  await inTx(ctx, async ({ tx, clock }) => {
    await lockVariantsSelling(tx, itemsAtLocation(id));
    if (!(await findLiveLocation(tx, id, true))) throw notFound(id);
    if (await locationHasReservations(tx, id)) throw errors.notAllowed('stock_location_has_reservations', { id });
    await deleteLocationLevels(tx, id);
    await deleteLocationChannelLinks(tx, id);
    await deleteLocationProviderLinks(tx, id);
    await clearDefaultLocation(tx, id);
    await softDeleteLocation(tx, id, clock.now());
  });
  return { id, object: 'stock_location' as const, deleted: true as const };
}

/** Adds and removes channel links; every channel to add must be live, or nothing changes. */
export async function linkLocationChannels(
  ctx: Ctx,
  id: string,
  input: { add?: string[]; remove?: string[] },
  channels: boolean,
) {
  const add = [...new Set(input.add ?? [])].sort();
  const remove = [...new Set(input.remove ?? [])].sort();
  return inTx(ctx, async ({ tx, clock }) => {
    if (!(await findLiveLocation(tx, id, true))) throw notFound(id);
    const live = new Set(await findLiveChannelIds(tx, add));
    const missing = add.filter((c) => !live.has(c));
    if (missing.length) throw errors.invalid('stock_location_channels_missing', { ids: missing.join(', ') });
    await linkChannels(tx, id, add, clock.now());
    await unlinkChannels(tx, id, remove);
    return getLocation(tx, id, channels);
  });
}
