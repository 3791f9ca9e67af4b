import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { TreeHead } from '../../transparency-log/format.ts';
import { federationLogHeads, federationServedArtifacts } from './tables.ts';

export type LogHeadRow = typeof federationLogHeads.$inferSelect;
export type ServedArtifactRow = typeof federationServedArtifacts.$inferSelect;

export async function findLogHead(db: Executor, url: string): Promise<LogHeadRow | undefined> {
  const [row] = await db.select().from(federationLogHeads).where(eq(federationLogHeads.marketplace_url, url));
  return row;
}

/** Keeps `head` as the largest verified one (the caller proved it consistent with the previous). */
export async function saveLogHead(db: Executor, url: string, head: TreeHead, now: Date): Promise<void> {
  const set = {
    tree_size: head.tree_size,
    root_hash: head.root_hash,
    timestamp: head.timestamp,
    key_id: head.key_id,
    signature: head.signature,
    checked_at: now,
  };
  await db
    .insert(federationLogHeads)
    .values({ marketplace_url: url, ...set })
    .onConflictDoUpdate({ target: federationLogHeads.marketplace_url, set });
}

export async function touchLogHead(db: Executor, url: string, now: Date): Promise<void> {
  await db.update(federationLogHeads).set({ checked_at: now }).where(eq(federationLogHeads.marketplace_url, url));
}

export async function saveLogRefusal(db: Executor, url: string, reason: string, now: Date): Promise<void> {
  await db
    .update(federationLogHeads)
    .set({ refused_at: now, refused_reason: reason })
    .where(eq(federationLogHeads.marketplace_url, url));
}

export async function recordServedArtifact(db: Executor, row: ServedArtifactRow): Promise<void> {
  const { leaf_index, tree_size, refused_reason, received_at } = row;
  await db
    .insert(federationServedArtifacts)
    .values(row)
    .onConflictDoUpdate({
      target: [
        federationServedArtifacts.marketplace_url,
        federationServedArtifacts.marketplace_id,
        federationServedArtifacts.version,
        federationServedArtifacts.sha256,
      ],
      set: { leaf_index, tree_size, refused_reason, received_at },
    });
}

export async function listServedArtifacts(db: Executor, url: string): Promise<ServedArtifactRow[]> {
  return db
    .select()
    .from(federationServedArtifacts)
    .where(eq(federationServedArtifacts.marketplace_url, url))
    .orderBy(asc(federationServedArtifacts.received_at));
}
