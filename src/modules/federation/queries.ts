import { eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { instanceIdentity } from './tables.ts';

const SINGLETON = 1;

export async function findInstanceSecret(db: Executor): Promise<string | undefined> {
  const [row] = await db.select({ secret: instanceIdentity.secret_encrypted }).from(instanceIdentity).where(eq(instanceIdentity.id, SINGLETON));
  return row?.secret;
}

/** Concurrent first uses (two instances) insert one each; the first wins and both read it back. */
export async function insertInstanceSecretIfNone(db: Executor, secretEncrypted: string, now: Date): Promise<void> {
  await db.insert(instanceIdentity).values({ id: SINGLETON, secret_encrypted: secretEncrypted, created_at: now }).onConflictDoNothing();
}
