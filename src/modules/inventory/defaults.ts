import { eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { inventoryDefaults } from './tables.ts';

/** A deleted location stops being the default; the next stock-managed variant picks another. */
export async function clearDefaultLocation(db: Executor, locationId: string): Promise<void> {
  await db.delete(inventoryDefaults).where(eq(inventoryDefaults.location_id, locationId));
}
