import { sql } from 'drizzle-orm';
import type { NamedPart } from '../../platform/db/one-statement.ts';
import { pgCode } from '../../platform/db/pg-errors.ts';
import { columnNames } from '../../platform/db/typed-sql.ts';
import { reservationItems as ri } from '../inventory/tables.ts';

// The inventory module's table by its declared columns: a renamed one fails the typecheck here.
const RESERVATION_COLUMNS = columnNames(
  ri.id,
  ri.inventory_item_id,
  ri.location_id,
  ri.line_item_id,
  ri.quantity,
  ri.allow_backorder,
  ri.created_at,
  ri.updated_at,
);

/** An order line whose variant manages stock. */
export interface ReservedLine {
  id: string;
  variant_id: string;
  quantity: number;
}

/**
 * Reserves each line's stock, for checkout's statement: one part per line, `reservation_1`,
 * `reservation_2`, …, in variant id order (the order every stock writer locks variants in). Each
 * part inserts the reservation items that `inventory_reserve` (migration checkout_reservations)
 * answers after it has locked the variants and the item's levels and raised their
 * `reserved_quantity` at the locations the allocation setting picks among the channel's. Stock
 * short and no backorder: the function raises EI001 and the whole statement, order included,
 * fails ({@link isStockShort}). The lock on the variant rows is held until checkout commits, so a
 * competing checkout waits, then sees the committed levels: never oversold, and never refused
 * while a location of the channel still has the units.
 */
export function reservationParts(lines: ReservedLine[], channelId: string | null, now: Date): NamedPart[] {
  const at = now.toISOString();
  const ordered = [...lines].sort((a, b) => a.variant_id.localeCompare(b.variant_id) || a.id.localeCompare(b.id));
  return ordered.map((l, i) => [
    `reservation_${i + 1}`,
    sql`insert into ${ri} (${RESERVATION_COLUMNS})
      select inventory_new_id('resitem'), r.r_item, r.r_location, ${l.id}, r.r_quantity, r.r_backorder, ${at}::timestamptz, ${at}::timestamptz
      from inventory_reserve(${l.variant_id}, ${l.quantity}::int, ${channelId}::text, ${at}::timestamptz) r
      returning ${columnNames(ri.id)}`,
  ]);
}

/** The statement failed because a line's stock was short (SQLSTATE EI001 raised by `inventory_reserve`). */
export const isStockShort = (err: unknown): boolean => pgCode(err) === 'EI001';
