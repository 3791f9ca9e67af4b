import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import { liveIdsAmong } from '../../platform/db/live-rows.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { categories } from '../categories/tables.ts';
import { productTagLinks } from '../product-labels/tables.ts';
import { productCategories, products } from './tables.ts';

/** Writes by which other modules' admin routes (collections, categories, labels) change products. */

/** Live products among `ids`, locked for the rest of the transaction, in id order. */
export function lockLiveProducts(db: Executor, ids: string[]): Promise<string[]> {
  return liveIdsAmong(db, products, ids, 'update');
}

export async function setCollection(db: Executor, ids: string[], collectionId: string | null, now: Date) {
  if (ids.length)
    await db.update(products).set({ collection_id: collectionId, updated_at: now }).where(inArray(products.id, ids));
}

/** Live products in the collection (to detach them when it goes). */
export async function productsInCollection(db: Executor, collectionId: string): Promise<string[]> {
  const found = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.collection_id, collectionId), isNull(products.deleted_at)));
  return found.map((r) => r.id);
}

export async function productsInCategory(db: Executor, categoryId: string): Promise<string[]> {
  const found = await db
    .select({ id: productCategories.product_id })
    .from(productCategories)
    .where(eq(productCategories.category_id, categoryId));
  return found.map((r) => r.id);
}

export async function addCategoryLinks(db: Executor, categoryId: string, productIds: string[]) {
  if (!productIds.length) return;
  await db
    .insert(productCategories)
    .values(productIds.map((product_id) => ({ product_id, category_id: categoryId })))
    .onConflictDoNothing();
}

export async function removeCategoryLinks(db: Executor, categoryId: string, productIds?: string[]) {
  await db
    .delete(productCategories)
    .where(
      and(
        eq(productCategories.category_id, categoryId),
        productIds ? inArray(productCategories.product_id, productIds) : undefined,
      ),
    );
}

export async function touchProducts(db: Executor, ids: string[], now: Date) {
  if (ids.length) await db.update(products).set({ updated_at: now }).where(inArray(products.id, ids));
}

/** Ids among `ids` that are live rows of `table` (categories, collections, tags, types). */
export async function findLiveIds(db: Executor, table: string, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const found = await rows<{ id: string }>(
    db,
    sql`select id from ${sql.identifier(table)} where id = any(${sql.param(ids)}::text[]) and deleted_at is null`,
  );
  return found.map((r) => r.id);
}

/** Live products carrying a type or a tag. */
export async function productsWithLabel(db: Executor, kind: 'type' | 'tag', id: string): Promise<string[]> {
  const found =
    kind === 'type'
      ? await db
          .select({ id: products.id })
          .from(products)
          .where(and(eq(products.type_id, id), isNull(products.deleted_at)))
          .orderBy(products.id)
      : await db
          .select({ id: productTagLinks.product_id })
          .from(productTagLinks)
          .innerJoin(products, eq(products.id, productTagLinks.product_id))
          .where(and(eq(productTagLinks.tag_id, id), isNull(products.deleted_at)))
          .orderBy(productTagLinks.product_id);
  return found.map((r) => r.id);
}

const l = tableAs(productCategories, 'l');
const c = tableAs(categories, 'c');
const parent = tableAs(categories, 'parent');

/** Products in categories `ids`, in their children, or in their parents (each product once). */
export async function productsNearCategories(db: Executor, ids: string[]): Promise<string[]> {
  const inIds = sql`any(${sql.param(ids)}::text[])`;
  const found = await rows<{ product_id: string }>(
    db,
    sql`select distinct ${l.product_id} from ${from(l)} join ${from(c)} on ${c.id} = ${l.category_id}
        where ${c.id} = ${inIds} or ${c.parent_category_id} = ${inIds}
           or ${c.id} in (select ${parent.parent_category_id} from ${from(parent)} where ${parent.id} = ${inIds})`,
  );
  return found.map((r) => r.product_id);
}

export async function removeLabel(db: Executor, kind: 'type' | 'tag', id: string): Promise<void> {
  if (kind === 'type') await db.update(products).set({ type_id: null }).where(eq(products.type_id, id));
  else await db.delete(productTagLinks).where(eq(productTagLinks.tag_id, id));
}
