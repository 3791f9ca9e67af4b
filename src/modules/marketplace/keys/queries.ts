import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import { marketplaceSigningKeys } from './tables.ts';

export type SigningKeyRow = typeof marketplaceSigningKeys.$inferSelect;

export async function findActiveKey(db: Executor): Promise<SigningKeyRow | undefined> {
  const [row] = await db.select().from(marketplaceSigningKeys).where(eq(marketplaceSigningKeys.active, true)).limit(1);
  return row;
}

/** Loses silently to a key another instance inserted first (one active key, unique index). */
export async function insertActiveKeyIfNone(db: Executor, row: SigningKeyRow): Promise<void> {
  await db.insert(marketplaceSigningKeys).values(row).onConflictDoNothing();
}

export async function listKeyRows(db: Executor): Promise<SigningKeyRow[]> {
  return db
    .select()
    .from(marketplaceSigningKeys)
    .orderBy(asc(marketplaceSigningKeys.created_at), asc(marketplaceSigningKeys.key_id));
}
