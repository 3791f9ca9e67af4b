import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { inventoryLevels, reservationItems } from './tables.ts';

export type ReservationRow = typeof reservationItems.$inferSelect;

export interface ReservationFilters {
  location_id?: string[];
  inventory_item_id?: string[];
  line_item_id?: string[];
}

function matching(f: ReservationFilters): SQL | undefined {
  return and(
    f.location_id ? inArray(reservationItems.location_id, f.location_id) : undefined,
    f.inventory_item_id ? inArray(reservationItems.inventory_item_id, f.inventory_item_id) : undefined,
    f.line_item_id ? inArray(reservationItems.line_item_id, f.line_item_id) : undefined,
  );
}

export async function listReservationRows(db: Executor, f: ReservationFilters, page: Page) {
  const where = matching(f);
  const [found, [count]] = await Promise.all([
    db
      .select()
      .from(reservationItems)
      .where(where)
      .orderBy(asc(reservationItems.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(reservationItems).where(where),
  ]);
  return { found, count: count.n };
}

export async function findReservation(db: Executor, id: string, lock = false): Promise<ReservationRow | undefined> {
  const q = db.select().from(reservationItems).where(eq(reservationItems.id, id));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function insertReservation(db: Executor, row: typeof reservationItems.$inferInsert) {
  const [created] = await db.insert(reservationItems).values(row).returning();
  return created;
}

export async function updateReservationRow(
  db: Executor,
  id: string,
  patch: Partial<typeof reservationItems.$inferInsert> & { updated_at: Date },
) {
  const [row] = await db.update(reservationItems).set(patch).where(eq(reservationItems.id, id)).returning();
  return row;
}

export async function deleteReservationRow(db: Executor, id: string): Promise<void> {
  await db.delete(reservationItems).where(eq(reservationItems.id, id));
}

/** Moves a level's reserved quantity by `delta`. */
export async function bumpReserved(db: Executor, levelId: string, delta: number, at: Date): Promise<void> {
  await db
    .update(inventoryLevels)
    .set({ reserved_quantity: sql`${inventoryLevels.reserved_quantity} + ${delta}`, updated_at: at })
    .where(eq(inventoryLevels.id, levelId));
}
