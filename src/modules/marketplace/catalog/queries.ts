import { and, asc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import type { Page } from '../../../platform/http/pagination.ts';
import { marketplaceArtifacts, marketplaceItems, marketplaceVersions } from '../tables.ts';

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

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

function matching(f: ItemFilters): SQL | undefined {
  const like = f.search ? `%${escapeLike(f.search)}%` : undefined;
  return and(
    f.publishedOnly ? eq(marketplaceItems.published, true) : undefined,
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
        publishedOnly ? eq(marketplaceItems.published, true) : undefined,
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
export async function findVersion(db: Executor, itemId: string, version: string): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceVersions)
    .where(and(eq(marketplaceVersions.item_id, itemId), eq(marketplaceVersions.version, version)))
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
export async function listVersionRows(db: Executor, itemIds: string[]): Promise<VersionRow[]> {
  if (!itemIds.length) return [];
  return db
    .select()
    .from(marketplaceVersions)
    .where(inArray(marketplaceVersions.item_id, itemIds))
    .orderBy(asc(marketplaceVersions.item_id), newestFirst);
}

/** The numerically highest version of each given item. */
export async function latestVersionRows(db: Executor, itemIds: string[]): Promise<VersionRow[]> {
  if (!itemIds.length) return [];
  return db
    .selectDistinctOn([marketplaceVersions.item_id])
    .from(marketplaceVersions)
    .where(inArray(marketplaceVersions.item_id, itemIds))
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
