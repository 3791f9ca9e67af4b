import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { regions } from '../regions/tables.ts';
import { salesChannels } from '../sales-channels/tables.ts';
import { stores } from './tables.ts';

export type StoreRow = typeof stores.$inferSelect;

export async function findStore(db: Executor): Promise<StoreRow | undefined> {
  const [row] = await db.select().from(stores).limit(1);
  return row;
}

/** The one store, made if missing (two first reads at once make one: the singleton index). */
export async function insertStoreIfMissing(db: Executor, row: typeof stores.$inferInsert): Promise<void> {
  await db.insert(stores).values(row).onConflictDoNothing();
}

export async function updateStoreRow(
  db: Executor,
  id: string,
  patch: Partial<Omit<StoreRow, 'id' | 'singleton' | 'created_at'>>,
): Promise<StoreRow | undefined> {
  const [row] = await db.update(stores).set(patch).where(eq(stores.id, id)).returning();
  return row;
}

/** The first sales channel made (the default one of ensureDefaultStoreAccess); reads sales-channels' table. */
export async function firstSalesChannelId(db: Executor): Promise<string | null> {
  const [row] = await db
    .select({ id: salesChannels.id })
    .from(salesChannels)
    .orderBy(asc(salesChannels.created_at), asc(salesChannels.id))
    .limit(1);
  return row?.id ?? null;
}

/** Whether a live row with this id exists in regions or sales_channels (the store's defaults point at them). */
export async function liveRowExists(db: Executor, table: 'regions' | 'sales_channels', id: string): Promise<boolean> {
  const [row] =
    table === 'regions'
      ? await db
          .select({ id: regions.id })
          .from(regions)
          .where(and(eq(regions.id, id), isNull(regions.deleted_at)))
      : await db
          .select({ id: salesChannels.id })
          .from(salesChannels)
          .where(and(eq(salesChannels.id, id), isNull(salesChannels.deleted_at)));
  return !!row;
}
