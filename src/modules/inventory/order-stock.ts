import type { Tx } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { itemIds, lockVariantsSelling } from './locks.ts';
import * as q from './order-stock-queries.ts';
import type { ReservationRow } from './reservation-queries.ts';

/**
 * What an order's lines hold and what a fulfilment takes: checkout reserves each stock-managed
 * line at a location (migration checkout_reservations); a cancel releases the hold, a fulfilment
 * turns it into stock leaving the shelf of the location the operator picks (the reserving one by
 * default), and a fulfilment canceled before it ships puts that stock back and holds it again.
 * Every function locks the variants selling the items first, then the items' levels, in id order,
 * as checkout does, so they never deadlock with it. Called by orders inside its order lock.
 */

/** Units of one item leaving the shelf of one location for one line: kept on the fulfilment to undo it. */
export interface StockMove {
  inventory_item_id: string;
  location_id: string;
  line_item_id: string;
  quantity: number;
}

/** An order line as far as stock goes: `reserved_quantity` counts the variant's units held for it. */
export interface HeldLine {
  id: string;
  /** Null on a custom line (a draft order's title and price): it never holds stock. */
  variant_id: string | null;
  reserved_quantity: number;
}

const itemsOf = (rs: ReservationRow[]) => [...new Set(rs.map((r) => r.inventory_item_id))].sort();

/** Locks the variants, then the reservations and levels of these lines. */
async function lockLines(tx: Tx, lines: HeldLine[]) {
  const ids = lines.map((l) => l.id);
  const variants = lines.map((l) => l.variant_id).filter((v): v is string => v !== null);
  await q.lockVariantsOfLines(tx, ids, [...new Set(variants)]);
  const reservations = await q.lockReservationsOfLines(tx, ids);
  const levels = await q.lockLevelsOfItems(tx, itemsOf(reservations));
  return { reservations, levels };
}

/**
 * Releases every reservation of these lines (an order canceled). Answers the lines that had none:
 * orders placed before checkout reserved took their stock off the shelf, and the caller puts it back.
 */
export async function releaseLines(tx: Tx, lines: HeldLine[], at: Date): Promise<HeldLine[]> {
  if (!lines.length) return [];
  const { reservations } = await lockLines(tx, lines);
  for (const r of reservations) {
    await q.moveLevel(tx, r.inventory_item_id, r.location_id, 0, -r.quantity, at);
    await q.shrinkReservation(tx, r, r.quantity, at);
  }
  const held = new Set(reservations.map((r) => r.line_item_id));
  return lines.filter((l) => !held.has(l.id));
}

/**
 * Releases `units` (variant units) of one line's hold, as an order edit lowering an unfulfilled
 * line does: each item gives back its share (units × what the line holds of it per unit), from its
 * reservations in turn. Answers false when the line holds nothing (an order placed before checkout
 * reserved): the caller puts its stock back on the shelf instead.
 */
export async function releaseUnits(tx: Tx, line: HeldLine, units: number, at: Date): Promise<boolean> {
  if (units <= 0 || line.reserved_quantity <= 0) return false;
  const { reservations } = await lockLines(tx, [line]);
  if (!reservations.length) return false;
  for (const item of itemsOf(reservations)) {
    const own = reservations.filter((r) => r.inventory_item_id === item);
    const perUnit = own.reduce((n, r) => n + r.quantity, 0) / line.reserved_quantity;
    let left = units * perUnit;
    for (const r of own) {
      const k = Math.min(r.quantity, left);
      if (k <= 0) break;
      await q.moveLevel(tx, item, r.location_id, 0, -k, at);
      await q.shrinkReservation(tx, r, k, at);
      left -= k;
    }
  }
  return true;
}

/**
 * `units` of each line fulfilled from `locationId` (null: each reservation's own location). Per
 * item, the line's share of its reservations (units × required_quantity) leaves the shelf: the
 * reserving location's hold goes down, the fulfilling location's stock goes down. Units held at
 * the fulfilling location are used first. A location that does not keep the item, or that would
 * go below what it has free for the units it did not hold, refuses the fulfilment. Lines without
 * reservations (placed before checkout reserved) move nothing. Answers the moves and, per line,
 * the units no longer held.
 */
export async function fulfilLines(
  tx: Tx,
  asks: { line: HeldLine; units: number }[],
  locationId: string | null,
  at: Date,
): Promise<{ moves: StockMove[]; released: Map<string, number> }> {
  const moves: StockMove[] = [];
  const released = new Map<string, number>();
  const held = asks.filter((a) => a.line.reserved_quantity > 0);
  if (!held.length) return { moves, released };
  const { reservations, levels } = await lockLines(
    tx,
    held.map((a) => a.line),
  );
  const fromElsewhere = new Map<string, number>(); // item@location → units not held there
  for (const { line, units } of held) {
    const mine = reservations.filter((r) => r.line_item_id === line.id);
    if (!mine.length) continue;
    const n = Math.min(units, line.reserved_quantity);
    released.set(line.id, n);
    for (const item of itemsOf(mine)) {
      const rows = mine
        .filter((r) => r.inventory_item_id === item)
        .sort((a, b) => Number(b.location_id === locationId) - Number(a.location_id === locationId));
      let take = Math.round((rows.reduce((s, r) => s + r.quantity, 0) * n) / line.reserved_quantity);
      for (const r of rows) {
        const t = Math.min(take, r.quantity);
        if (t <= 0) break;
        take -= t;
        const to = locationId ?? r.location_id;
        if (!levels.some((l) => l.inventory_item_id === item && l.location_id === to))
          throw errors.invalid('fulfillment_location_not_stocked', { item, location: to });
        await q.moveLevel(tx, item, r.location_id, 0, -t, at);
        await q.moveLevel(tx, item, to, -t, 0, at);
        await q.shrinkReservation(tx, r, t, at);
        if (to !== r.location_id) fromElsewhere.set(`${item}@${to}`, (fromElsewhere.get(`${item}@${to}`) ?? 0) + t);
        moves.push({ inventory_item_id: item, location_id: to, line_item_id: line.id, quantity: t });
      }
    }
  }
  for (const [key, extra] of fromElsewhere) {
    const level = levels.find((l) => `${l.inventory_item_id}@${l.location_id}` === key)!;
    if (level.stocked_quantity - level.reserved_quantity < extra)
      throw errors.notAllowed('insufficient_inventory', {
        location: level.location_id,
        available: Math.max(level.stocked_quantity - level.reserved_quantity, 0),
        item: level.inventory_item_id,
        asked: extra,
      });
  }
  return { moves, released };
}

/** A fulfilment canceled before it ships: its stock goes back where it left from, held again for its lines. */
export async function undoMoves(tx: Tx, moves: StockMove[], at: Date): Promise<void> {
  if (!moves.length) return;
  const items = [...new Set(moves.map((m) => m.inventory_item_id))].sort();
  await lockVariantsSelling(tx, itemIds(items));
  await q.lockLevelsOfItems(tx, items);
  for (const m of moves) {
    await q.moveLevel(tx, m.inventory_item_id, m.location_id, m.quantity, m.quantity, at);
    await q.insertLineReservation(tx, m, at);
  }
}
