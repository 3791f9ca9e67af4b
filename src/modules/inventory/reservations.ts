import { inTx, type Ctx } from '../../platform/context.ts';
import type { Tx } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { splitList } from '../sales-channels/service.ts';
import { itemIds, lockVariantsSelling } from './locks.ts';
import { findLiveItem, type LevelRow, lockLevels } from './queries.ts';
import {
  bumpReserved,
  deleteReservationRow,
  findReservation,
  insertReservation,
  listReservationRows,
  type ReservationFilters,
  updateReservationRow,
} from './reservation-queries.ts';
import type { CreateReservationInput, UpdateReservationInput } from './reservation-schema.ts';

/**
 * Reservations hold stock at one location: each one counts in its level's `reserved_quantity`,
 * so the level's available quantity (and the variants selling the item) drop while it lasts.
 * Writes lock the variants selling the item, then its levels (locks.ts), then check that the
 * location still has the units, so two reservations can never promise the same unit.
 */

const notFound = (id: string) => errors.notFound('reservation_not_found', { id });

async function lockedLevel(tx: Tx, itemId: string, locationId: string): Promise<LevelRow> {
  await lockVariantsSelling(tx, itemIds([itemId]));
  if (!(await findLiveItem(tx, itemId))) throw errors.notFound('inventory_item_not_found', { id: itemId });
  const level = (await lockLevels(tx, itemId)).find((l) => l.location_id === locationId);
  if (!level) throw errors.notFound('inventory_level_not_found', { item: itemId, location: locationId });
  return level;
}

function checkAvailable(level: LevelRow, wanted: number, backorder: boolean) {
  const available = level.stocked_quantity - level.reserved_quantity;
  if (!backorder && wanted > available)
    throw errors.notAllowed('insufficient_inventory', { item: level.inventory_item_id, location: level.location_id });
}

export async function listReservations(ctx: Ctx, filters: ReservationFilters, page: Page) {
  const f = {
    location_id: splitList(filters.location_id),
    inventory_item_id: splitList(filters.inventory_item_id),
    line_item_id: splitList(filters.line_item_id),
  };
  const { found, count } = await listReservationRows(ctx.db, f, page);
  return { reservations: found, count };
}

export async function getReservation(ctx: Ctx, id: string) {
  const row = await findReservation(ctx.db, id);
  if (!row) throw notFound(id);
  return row;
}

export async function createReservation(ctx: Ctx, input: CreateReservationInput) {
  return inTx(ctx, async ({ tx, clock, actor }) => {
    const at = clock.now();
    const level = await lockedLevel(tx, input.inventory_item_id, input.location_id);
    checkAvailable(level, input.quantity, input.allow_backorder ?? false);
    await bumpReserved(tx, level.id, input.quantity, at);
    return insertReservation(tx, {
      id: newId('resitem'),
      ...input,
      allow_backorder: input.allow_backorder ?? false,
      created_by: actor?.id ?? null,
      created_at: at,
      updated_at: at,
    });
  });
}

/** A new quantity or location: the old hold is released and the new one checked and taken. */
export async function updateReservation(ctx: Ctx, id: string, input: UpdateReservationInput) {
  return inTx(ctx, async ({ tx, clock }) => {
    const at = clock.now();
    const current = await findReservation(tx, id, true);
    if (!current) throw notFound(id);
    const location = input.location_id ?? current.location_id;
    const quantity = input.quantity ?? current.quantity;
    const levels = await lockLevelsOf(tx, current.inventory_item_id);
    const from = levels.find((l) => l.location_id === current.location_id);
    const to = levels.find((l) => l.location_id === location);
    if (!to) throw errors.notFound('inventory_level_not_found', { item: current.inventory_item_id, location });
    const released = from && from.id === to.id ? current.quantity : 0;
    checkAvailable({ ...to, reserved_quantity: to.reserved_quantity - released }, quantity, current.allow_backorder);
    if (from) await bumpReserved(tx, from.id, -current.quantity, at);
    await bumpReserved(tx, to.id, quantity, at);
    return updateReservationRow(tx, id, { ...input, location_id: location, quantity, updated_at: at });
  });
}

async function lockLevelsOf(tx: Tx, itemId: string): Promise<LevelRow[]> {
  await lockVariantsSelling(tx, itemIds([itemId]));
  return lockLevels(tx, itemId);
}

/** Releases the held units. */
export async function deleteReservation(ctx: Ctx, id: string) {
  await inTx(ctx, async ({ tx, clock }) => {
    const current = await findReservation(tx, id, true);
    if (!current) throw notFound(id);
    const level = (await lockLevelsOf(tx, current.inventory_item_id)).find(
      (l) => l.location_id === current.location_id,
    );
    if (level) await bumpReserved(tx, level.id, -current.quantity, clock.now());
    await deleteReservationRow(tx, id);
  });
  return { id, object: 'reservation' as const, deleted: true as const };
}
