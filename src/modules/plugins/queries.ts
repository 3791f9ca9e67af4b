import { and, asc, count, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { pluginArtifacts, plugins, type PluginStatus } from './tables.ts';

export type PluginRow = typeof plugins.$inferSelect;
export type NewPluginRow = typeof plugins.$inferInsert;

/** NOTIFY channel: a plugin row changed; every instance reconciles what it has loaded. */
export const PLUGINS_CHANNEL = 'emporium_plugins';

/** Updates the row while `when` still holds of it: the row as it is now, or undefined when it did not hold. */
async function updatePluginWhere(
  db: Executor,
  id: string,
  fields: PgUpdateSetSource<typeof plugins>,
  when?: SQL,
): Promise<PluginRow | undefined> {
  const [row] = await db
    .update(plugins)
    .set(fields)
    .where(and(eq(plugins.id, id), when))
    .returning();
  return row;
}

/** No instance holds the row's pipeline: its lease is free or expired (a crashed instance's). */
const leaseFree = (now: Date) => or(isNull(plugins.lease_until), lt(plugins.lease_until, now));
const inPipeline = inArray(plugins.status, ['installing', 'updating']);

export function insertPlugin(db: Executor, row: NewPluginRow): Promise<PluginRow> {
  return insertRow(db, plugins, row);
}

export async function findPlugin(db: Executor, id: string): Promise<PluginRow | undefined> {
  const [row] = await db.select().from(plugins).where(eq(plugins.id, id));
  return row;
}

/** The row holding that marketplace id or that manifest id (either makes a new install clash). */
export async function findClashingPlugin(
  db: Executor,
  marketplaceId: string,
  manifestId: string,
): Promise<PluginRow | undefined> {
  const [row] = await db
    .select()
    .from(plugins)
    .where(or(eq(plugins.marketplace_id, marketplaceId), eq(plugins.manifest_id, manifestId)))
    .limit(1);
  return row;
}

export async function listPluginRows(db: Executor, page: Page): Promise<PluginRow[]> {
  return db.select().from(plugins).orderBy(asc(plugins.id)).limit(page.limit).offset(page.offset);
}

export async function countPlugins(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(plugins);
  return Number(row.n);
}

export async function listAllPluginRows(db: Executor): Promise<PluginRow[]> {
  return db.select().from(plugins).orderBy(asc(plugins.id));
}

export async function listPluginRowsByStatus(db: Executor, statuses: PluginStatus[]): Promise<PluginRow[]> {
  return db.select().from(plugins).where(inArray(plugins.status, statuses)).orderBy(asc(plugins.id));
}

/** A failed row is retried in place by a new install request. */
export async function restartFailedPlugin(
  db: Executor,
  id: string,
  fields: Partial<NewPluginRow>,
): Promise<PluginRow | undefined> {
  const restart = { ...fields, status: 'installing' as const, error: null, lease_until: null, attempts: 0 };
  return updatePluginWhere(db, id, restart, eq(plugins.status, 'failed'));
}

/**
 * Takes the pipeline of an installing/updating row whose lease is free or expired (a crashed
 * instance's): one instance wins, and the attempt is counted. `force` ignores the lease (a
 * PGlite instance at start: it is the only process on its data, so every lease is stale).
 */
export async function claimPipeline(
  db: Executor,
  id: string,
  now: Date,
  leaseUntil: Date,
  force = false,
): Promise<PluginRow | undefined> {
  const claim = { lease_until: leaseUntil, attempts: sql`${plugins.attempts} + 1` };
  return updatePluginWhere(db, id, claim, and(inPipeline, force ? undefined : leaseFree(now)));
}

/** Rows of an install or update no instance is working on (lease free or expired). */
export async function listUnleasedPipelines(db: Executor, now: Date): Promise<string[]> {
  const rows = await db
    .select({ id: plugins.id })
    .from(plugins)
    .where(and(inPipeline, leaseFree(now)));
  return rows.map((r) => r.id);
}

/** Finishes a pipeline: only while the row is still in `from` (an uninstall meanwhile wins). */
export async function finishPipeline(
  db: Executor,
  id: string,
  from: PluginStatus,
  fields: Partial<NewPluginRow>,
): Promise<PluginRow | undefined> {
  return updatePluginWhere(db, id, { ...fields, lease_until: null, attempts: 0 }, eq(plugins.status, from));
}

export function updatePluginRow(
  db: Executor,
  id: string,
  fields: Partial<NewPluginRow>,
): Promise<PluginRow | undefined> {
  return updatePluginWhere(db, id, fields);
}

/** The columns of a row whose update to `version` starts now (a fresh pipeline, nothing pending). */
function updateStarted(version: string, now: Date) {
  return {
    status: 'updating' as const,
    target_version: version,
    error: null,
    pending_version: null,
    pending_permissions: null,
    lease_until: null,
    attempts: 0,
    updated_at: now,
  };
}

/** Starts an update of an installed plugin (and nothing else: one pipeline per row at a time). */
export async function startUpdate(
  db: Executor,
  id: string,
  version: string,
  now: Date,
): Promise<PluginRow | undefined> {
  return updatePluginWhere(db, id, updateStarted(version, now), eq(plugins.status, 'installed'));
}

/** The operator approved the rights of the waiting update: grant them and start that update. */
export async function approvePendingUpdate(
  db: Executor,
  id: string,
  version: string,
  now: Date,
): Promise<PluginRow | undefined> {
  const approved = { ...updateStarted(version, now), granted_permissions: sql`${plugins.pending_permissions}` };
  return updatePluginWhere(
    db,
    id,
    approved,
    and(eq(plugins.status, 'installed'), eq(plugins.pending_version, version)),
  );
}

export async function deletePluginRow(db: Executor, id: string): Promise<PluginRow | undefined> {
  const [row] = await db.delete(plugins).where(eq(plugins.id, id)).returning();
  return row;
}

export async function insertArtifact(db: Executor, sha256: string, bytes: Buffer, now: Date): Promise<void> {
  await db.insert(pluginArtifacts).values({ sha256, bytes, size: bytes.length, created_at: now }).onConflictDoNothing();
}

export async function readArtifact(db: Executor, sha256: string): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ bytes: pluginArtifacts.bytes })
    .from(pluginArtifacts)
    .where(eq(pluginArtifacts.sha256, sha256));
  return row?.bytes;
}

/** Delivered at commit: wakes every instance's reconcile for that row. */
export async function notifyPluginChanged(db: Executor, id: string): Promise<void> {
  await db.execute(sql`select pg_notify(${PLUGINS_CHANNEL}, ${id})`);
}
