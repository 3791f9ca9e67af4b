import { eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import {
  federationRevocationLists,
  federationSeenDeliveries,
  instanceIdentity,
  pluginLicenseChecks,
} from './tables.ts';

const SINGLETON = 1;

export async function findInstanceSecret(db: Executor): Promise<string | undefined> {
  const [row] = await db
    .select({ secret: instanceIdentity.secret_encrypted })
    .from(instanceIdentity)
    .where(eq(instanceIdentity.id, SINGLETON));
  return row?.secret;
}

/** Concurrent first uses (two instances) insert one each; the first wins and both read it back. */
export async function insertInstanceSecretIfNone(db: Executor, secretEncrypted: string, now: Date): Promise<void> {
  await db
    .insert(instanceIdentity)
    .values({ id: SINGLETON, secret_encrypted: secretEncrypted, created_at: now })
    .onConflictDoNothing();
}

/** Records an accepted callback signature; false when it was seen before (a replay). Expired rows are dropped first. */
export async function recordSeenDelivery(
  db: Executor,
  row: { signature_hash: string; delivery_id: string | null; expires_at: Date },
  now: Date,
): Promise<boolean> {
  await db.delete(federationSeenDeliveries).where(lt(federationSeenDeliveries.expires_at, now));
  const inserted = await db
    .insert(federationSeenDeliveries)
    .values(row)
    .onConflictDoNothing()
    .returning({ hash: federationSeenDeliveries.signature_hash });
  return inserted.length > 0;
}

export type LicenseCheckRow = typeof pluginLicenseChecks.$inferSelect;

export async function findLicenseCheck(db: Executor, pluginId: string): Promise<LicenseCheckRow | undefined> {
  const [row] = await db.select().from(pluginLicenseChecks).where(eq(pluginLicenseChecks.plugin_id, pluginId));
  return row;
}

/** Every paid plugin's last verification (the admin panel shows the offline grace of each). */
export async function listLicenseChecks(db: Executor): Promise<LicenseCheckRow[]> {
  return db.select().from(pluginLicenseChecks).orderBy(pluginLicenseChecks.plugin_id);
}

export async function upsertLicenseCheck(db: Executor, row: LicenseCheckRow): Promise<void> {
  const { plugin_id: _id, ...rest } = row;
  await db
    .insert(pluginLicenseChecks)
    .values(row)
    .onConflictDoUpdate({ target: pluginLicenseChecks.plugin_id, set: rest });
}

export type RevocationListRow = typeof federationRevocationLists.$inferSelect;

export async function findRevocationList(db: Executor, url: string): Promise<RevocationListRow | undefined> {
  const [row] = await db
    .select()
    .from(federationRevocationLists)
    .where(eq(federationRevocationLists.marketplace_url, url));
  return row;
}

/** Records an accepted list; only ever raises the sequence (two instances polling at once both keep the higher). */
export async function saveAcceptedList(
  db: Executor,
  url: string,
  sequence: number,
  revokedKeys: string[],
  now: Date,
): Promise<void> {
  const set = { sequence, revoked_keys: revokedKeys, fetched_at: now, refused_at: null, refused_reason: null };
  await db
    .insert(federationRevocationLists)
    .values({ marketplace_url: url, ...set })
    .onConflictDoUpdate({
      target: federationRevocationLists.marketplace_url,
      set,
      setWhere: sql`${federationRevocationLists.sequence} <= ${sequence}`,
    });
}

export async function saveRefusal(db: Executor, url: string, reason: string, now: Date): Promise<void> {
  await db
    .insert(federationRevocationLists)
    .values({ marketplace_url: url, sequence: 0, refused_at: now, refused_reason: reason })
    .onConflictDoUpdate({
      target: federationRevocationLists.marketplace_url,
      set: { refused_at: now, refused_reason: reason },
    });
}
