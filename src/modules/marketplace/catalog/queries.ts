import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import type { Page } from '../../../platform/http/pagination.ts';
import { newId } from '../../../platform/ids.ts';
import { marketplaceArtifacts, marketplaceCrashReports, marketplaceItems, marketplaceVersions } from './tables.ts';
import { containsPattern } from '../../../platform/db/like-pattern.ts';

/** version_key compared byte-wise: the server's collation must not reorder digits and dots. */
const newestFirst = sql`${marketplaceVersions.version_key} collate "C" desc`;

export type ItemRow = typeof marketplaceItems.$inferSelect;
export type VersionRow = typeof marketplaceVersions.$inferSelect;

export interface ItemFilters {
  /** Only items in the feed (the store side); the admin side sees unpublished ones too. */
  publishedOnly: boolean;
  type?: string;
  /** Substring of name, marketplace_id or description, case-insensitive. */
  search?: string;
  /** Only these namespaces (a vendor's own); absent for the operator. */
  vendors?: string[];
}

const approved = eq(marketplaceVersions.status, 'approved');

/** An item reaches shops only once one of its versions is approved. */
const hasApprovedVersion = sql`exists (select 1 from ${marketplaceVersions} where ${marketplaceVersions.item_id} = ${marketplaceItems.id} and ${marketplaceVersions.status} = 'approved')`;

function matching(f: ItemFilters): SQL | undefined {
  const like = f.search ? containsPattern(f.search) : undefined;
  return and(
    f.publishedOnly ? and(eq(marketplaceItems.published, true), hasApprovedVersion) : undefined,
    f.type ? eq(marketplaceItems.type, f.type) : undefined,
    f.vendors ? inArray(marketplaceItems.vendor, f.vendors.length ? f.vendors : ['']) : undefined,
    like
      ? or(
          ilike(marketplaceItems.name, like),
          ilike(marketplaceItems.marketplace_id, like),
          ilike(marketplaceItems.description, like),
        )
      : undefined,
  );
}

/** Ordered by marketplace_id (byte order), so pages are stable whatever the publish times. */
export async function listItemRows(db: Executor, filters: ItemFilters, page: Page): Promise<ItemRow[]> {
  return db
    .select()
    .from(marketplaceItems)
    .where(matching(filters))
    .orderBy(sql`${marketplaceItems.marketplace_id} collate "C"`)
    .limit(page.limit)
    .offset(page.offset);
}

export async function countItems(db: Executor, filters: ItemFilters): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(marketplaceItems).where(matching(filters));
  return row.n;
}

export async function findItemById(db: Executor, id: string): Promise<ItemRow | undefined> {
  const [row] = await db.select().from(marketplaceItems).where(eq(marketplaceItems.id, id)).limit(1);
  return row;
}

export async function findItemsByMarketplaceIds(
  db: Executor,
  marketplaceIds: string[],
  publishedOnly: boolean,
): Promise<ItemRow[]> {
  if (!marketplaceIds.length) return [];
  return db
    .select()
    .from(marketplaceItems)
    .where(
      and(
        inArray(marketplaceItems.marketplace_id, marketplaceIds),
        publishedOnly ? and(eq(marketplaceItems.published, true), hasApprovedVersion) : undefined,
      ),
    );
}

/** Creates the item row unless another publish just did; either way the caller then locks it. */
export async function insertItemIfAbsent(db: Executor, row: typeof marketplaceItems.$inferInsert): Promise<void> {
  await db.insert(marketplaceItems).values(row).onConflictDoNothing({ target: marketplaceItems.marketplace_id });
}

/** Serialises publishes of one item (its version checks and the "latest" it derives). */
export async function lockItemByMarketplaceId(db: Executor, marketplaceId: string): Promise<ItemRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceItems)
    .where(eq(marketplaceItems.marketplace_id, marketplaceId))
    .for('update')
    .limit(1);
  return row;
}

export async function updateItemRow(
  db: Executor,
  id: string,
  set: Partial<typeof marketplaceItems.$inferInsert>,
): Promise<ItemRow | undefined> {
  const [row] = await db.update(marketplaceItems).set(set).where(eq(marketplaceItems.id, id)).returning();
  return row;
}

export async function findVersionByKey(
  db: Executor,
  itemId: string,
  versionKey: string,
): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceVersions)
    .where(and(eq(marketplaceVersions.item_id, itemId), eq(marketplaceVersions.version_key, versionKey)))
    .limit(1);
  return row;
}

/** The exact version string: descriptors sign the text as published. */
export async function findVersion(
  db: Executor,
  itemId: string,
  version: string,
  approvedOnly = false,
): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceVersions)
    .where(
      and(
        eq(marketplaceVersions.item_id, itemId),
        eq(marketplaceVersions.version, version),
        approvedOnly ? approved : undefined,
      ),
    )
    .limit(1);
  return row;
}

export async function insertVersion(
  db: Executor,
  row: typeof marketplaceVersions.$inferInsert,
  bytes: Buffer,
): Promise<VersionRow> {
  const [created] = await db.insert(marketplaceVersions).values(row).returning();
  await db.insert(marketplaceArtifacts).values({ version_id: created.id, bytes });
  return created;
}

/** Every version of the given items, newest (numerically highest) first within each item. */
export async function listVersionRows(db: Executor, itemIds: string[], approvedOnly = false): Promise<VersionRow[]> {
  if (!itemIds.length) return [];
  return db
    .select()
    .from(marketplaceVersions)
    .where(and(inArray(marketplaceVersions.item_id, itemIds), approvedOnly ? approved : undefined))
    .orderBy(asc(marketplaceVersions.item_id), newestFirst);
}

/** The numerically highest version of each given item. */
export async function latestVersionRows(db: Executor, itemIds: string[], approvedOnly = false): Promise<VersionRow[]> {
  if (!itemIds.length) return [];
  return db
    .selectDistinctOn([marketplaceVersions.item_id])
    .from(marketplaceVersions)
    .where(and(inArray(marketplaceVersions.item_id, itemIds), approvedOnly ? approved : undefined))
    .orderBy(asc(marketplaceVersions.item_id), newestFirst);
}

export async function readArtifact(db: Executor, versionId: string): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ bytes: marketplaceArtifacts.bytes })
    .from(marketplaceArtifacts)
    .where(eq(marketplaceArtifacts.version_id, versionId))
    .limit(1);
  return row?.bytes;
}

export async function findVersionById(db: Executor, id: string): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceVersions)
    .where(eq(marketplaceVersions.id, id))
    .for('update')
    .limit(1);
  return row;
}

export async function updateVersionRow(
  db: Executor,
  id: string,
  set: Partial<typeof marketplaceVersions.$inferInsert>,
): Promise<VersionRow | undefined> {
  const [row] = await db.update(marketplaceVersions).set(set).where(eq(marketplaceVersions.id, id)).returning();
  return row;
}

/** One row per version and instance: a repeated report counts up and keeps the latest reason. */
export async function upsertCrashReport(
  db: Executor,
  versionId: string,
  instanceHash: string,
  input: { reason: string; rolled_back_to?: string },
  now: Date,
): Promise<void> {
  await db
    .insert(marketplaceCrashReports)
    .values({
      id: newId('mcr'),
      version_id: versionId,
      instance_hash: instanceHash,
      reason: input.reason,
      rolled_back_to: input.rolled_back_to ?? null,
      first_reported_at: now,
      last_reported_at: now,
    })
    .onConflictDoUpdate({
      target: [marketplaceCrashReports.version_id, marketplaceCrashReports.instance_hash],
      set: {
        reason: input.reason,
        rolled_back_to: input.rolled_back_to ?? null,
        reports: sql`${marketplaceCrashReports.reports} + 1`,
        last_reported_at: now,
      },
    });
}

export async function listCrashReports(db: Executor, versionIds: string[]) {
  if (!versionIds.length) return [];
  return db
    .select()
    .from(marketplaceCrashReports)
    .where(inArray(marketplaceCrashReports.version_id, versionIds))
    .orderBy(desc(marketplaceCrashReports.last_reported_at));
}
