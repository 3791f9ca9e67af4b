import { sql } from 'drizzle-orm';
import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { batchImageVariants, batchVariantImages } from './media-writes.ts';
import { listLiveVariants, lockLiveProduct } from './write-queries.ts';
import { emit } from '../../platform/events/emit.ts';
import { rows, type Executor } from '../../platform/db/database.ts';
import { refreshStoreDocuments } from './store-documents.ts';
import { errors } from '../../platform/http/errors.ts';
import {
  addCategoryLinks,
  findLiveIds,
  lockLiveProducts,
  productsInCategory,
  productsInCollection,
  productsNearCategories,
  productsWithLabel,
  removeCategoryLinks,
  removeLabel,
  setCollection,
  touchProducts,
} from './link-queries.ts';
import { findAdminProduct } from './queries.ts';
import type { Static } from 'typebox';
import type { Product } from './response-schema.ts';

type ProductJson = Static<typeof Product>;

/**
 * How collections, categories and labels change products: always here, in the caller's
 * transaction, with `updated_at` moved and `product.updated` emitted for each product whose
 * JSON changed, so that anything derived from a product's JSON is refreshed in one place.
 */

const unique = (ids: string[]) => [...new Set(ids)].sort();

async function assertLiveProducts(tctx: TxCtx, ids: string[]): Promise<string[]> {
  const live = await lockLiveProducts(tctx.tx, ids);
  const missing = ids.filter((id) => !live.includes(id));
  if (missing.length) throw errors.invalid('products_missing', { ids: missing.join(', ') });
  return live;
}

/** Emits `product.updated` with the fresh admin JSON of each product, and rebuilds their store documents. */
export async function productsChanged(tctx: TxCtx, ids: string[]): Promise<void> {
  const now = tctx.clock.now();
  await touchProducts(tctx.tx, ids, now);
  await refreshStoreDocuments(tctx.tx, ids);
  for (const id of ids) {
    const product = await findAdminProduct<ProductJson>(tctx.tx, id);
    if (product) await emit(tctx, 'product.updated', product);
  }
}

/** `POST /admin/collections/{id}/products`: moves `add` into the collection, takes `remove` out of it. */
export async function batchCollectionProducts(
  tctx: TxCtx,
  collectionId: string,
  input: { add?: string[]; remove?: string[] },
): Promise<void> {
  const add = await assertLiveProducts(tctx, unique(input.add ?? []));
  const inside = new Set(await productsInCollection(tctx.tx, collectionId));
  const remove = unique(input.remove ?? []).filter((id) => inside.has(id) && !add.includes(id));
  const now = tctx.clock.now();
  await setCollection(tctx.tx, add, collectionId, now);
  await setCollection(tctx.tx, remove, null, now);
  await productsChanged(tctx, unique([...add, ...remove]));
}

/** A deleted collection leaves its products without one. */
export async function detachCollection(tctx: TxCtx, collectionId: string): Promise<void> {
  const ids = await productsInCollection(tctx.tx, collectionId);
  await setCollection(tctx.tx, ids, null, tctx.clock.now());
  await productsChanged(tctx, ids);
}

export async function batchCategoryProducts(
  tctx: TxCtx,
  categoryId: string,
  input: { add?: string[]; remove?: string[] },
): Promise<void> {
  const add = await assertLiveProducts(tctx, unique(input.add ?? []));
  const remove = unique(input.remove ?? []).filter((id) => !add.includes(id));
  await addCategoryLinks(tctx.tx, categoryId, add);
  if (remove.length) await removeCategoryLinks(tctx.tx, categoryId, remove);
  await productsChanged(tctx, unique([...add, ...remove]));
}

/** A deleted category is unlinked from its products. */
export async function detachCategory(tctx: TxCtx, categoryId: string): Promise<void> {
  const ids = await productsInCategory(tctx.tx, categoryId);
  await removeCategoryLinks(tctx.tx, categoryId);
  await productsChanged(tctx, unique(ids));
}

/** Rejects references to missing or deleted rows of `table` (400, Medusa's wording). */
export async function assertLiveRefs(tctx: TxCtx, table: string, label: string, ids: string[]): Promise<void> {
  const wanted = unique(ids);
  const found = new Set(await findLiveIds(tctx.tx, table, wanted));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length) throw errors.invalid('link_targets_missing', { what: label, ids: missing.join(', ') });
}

/** A renamed type or tag: its products' JSON embeds it. */
export async function labelChanged(tctx: TxCtx, kind: 'type' | 'tag', id: string): Promise<void> {
  await productsChanged(tctx, await productsWithLabel(tctx.tx, kind, id));
}

/** A deleted type or tag leaves its products. */
export async function detachLabel(tctx: TxCtx, kind: 'type' | 'tag', id: string): Promise<void> {
  const ids = await productsWithLabel(tctx.tx, kind, id);
  await removeLabel(tctx.tx, kind, id);
  await productsChanged(tctx, ids);
}

/** `POST /admin/products/{id}/variants/{variant_id}/images/batch`: which gallery images a variant shows. */
export async function batchVariantImageLinks(
  ctx: Ctx,
  productId: string,
  variantId: string,
  input: { add?: string[]; remove?: string[] },
): Promise<{ added: string[]; removed: string[] }> {
  return inTx(ctx, async (tctx) => {
    if (!(await lockLiveProduct(tctx.tx, productId))) throw errors.notFound('product_not_found', { id: productId });
    const variants = await listLiveVariants(tctx.tx, productId);
    if (!variants.some((v) => v.id === variantId)) {
      throw errors.notFound('product_variant_not_found', { id: variantId, product: productId });
    }
    await batchVariantImages(tctx.tx, productId, variantId, input);
    await productsChanged(tctx, [productId]);
    return { added: [...new Set(input.add ?? [])], removed: [...new Set(input.remove ?? [])] };
  });
}

/** `POST /admin/products/{id}/images/{image_id}/variants/batch`: which variants show a gallery image. */
export async function batchImageVariantLinks(
  ctx: Ctx,
  productId: string,
  imageId: string,
  input: { add?: string[]; remove?: string[] },
): Promise<{ added: string[]; removed: string[] }> {
  return inTx(ctx, async (tctx) => {
    if (!(await lockLiveProduct(tctx.tx, productId))) throw errors.notFound('product_not_found', { id: productId });
    const variants = new Set((await listLiveVariants(tctx.tx, productId)).map((v) => v.id));
    await batchImageVariants(tctx.tx, productId, imageId, variants, input);
    await productsChanged(tctx, [productId]);
    return { added: [...new Set(input.add ?? [])], removed: [...new Set(input.remove ?? [])] };
  });
}

/**
 * A collection's own fields changed (title, handle, metadata): the store documents of its
 * products embed it. No `product.updated`: the products themselves did not change.
 */
export async function refreshCollectionProducts(tx: Executor, collectionId: string): Promise<void> {
  const found = await rows<{ id: string }>(
    tx,
    sql`select id from products where collection_id = ${collectionId} and deleted_at is null`,
  );
  await refreshStoreDocuments(
    tx,
    found.map((r) => r.id),
  );
}

/**
 * Categories changed (created, renamed, moved, re-ranked): a product's store document embeds its
 * categories with their parent and direct children, so the products of these categories, of
 * their parents and of their children (siblings' ranks move too) are rebuilt.
 */
export async function refreshProductsNearCategories(tx: Executor, categoryIds: (string | null)[]): Promise<void> {
  const ids = [...new Set(categoryIds.filter((id): id is string => !!id))];
  if (!ids.length) return;
  await refreshStoreDocuments(tx, await productsNearCategories(tx, ids));
}
