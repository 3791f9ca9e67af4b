import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { settings } from './tables.ts';

export type SettingRow = typeof settings.$inferSelect;

/** Byte order ("C"), so the listing is the same whatever collation the server database has. */
export async function listSettingRows(db: Executor): Promise<SettingRow[]> {
  return db.select().from(settings).orderBy(sql`${settings.key} collate "C"`);
}

export async function findSetting(db: Executor, key: string): Promise<SettingRow | undefined> {
  const [row] = await db.select().from(settings).where(eq(settings.key, key)).limit(1);
  return row;
}

/** One statement, so two concurrent writers of a new key never collide on the primary key. */
export async function upsertSetting(db: Executor, row: SettingRow): Promise<SettingRow> {
  const [saved] = await db
    .insert(settings)
    .values(row)
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: row.value, updated_at: row.updated_at, updated_by: row.updated_by },
    })
    .returning();
  return saved;
}

/** True when a row was deleted. */
export async function deleteSettingRow(db: Executor, key: string): Promise<boolean> {
  const deleted = await db.delete(settings).where(eq(settings.key, key)).returning({ key: settings.key });
  return deleted.length > 0;
}
