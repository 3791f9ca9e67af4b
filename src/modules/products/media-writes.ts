import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { productTagLinks } from '../product-labels/tables.ts';
import { productImages, productVariantImages } from './media-tables.ts';
import type { ImagesInput } from './schema.ts';

/** Images and tags of a product: written with the product, in its transaction. */

/** Replaces the gallery with `images`, in that order; an item with a known `id` keeps that image. */
export async function replaceImages(tx: Tx, productId: string, images: ImagesInput, now: Date): Promise<void> {
  const existing = await tx
    .select({ id: productImages.id })
    .from(productImages)
    .where(eq(productImages.product_id, productId));
  const known = new Set(existing.map((r) => r.id));
  const kept: string[] = [];
  for (const [rank, img] of images.entries()) {
    if (img.id !== undefined && !known.has(img.id)) {
      throw errors.invalid('image_not_in_product', { id: img.id, product: productId });
    }
    if (img.id !== undefined) {
      if (kept.includes(img.id)) throw errors.invalid('image_listed_twice', { id: img.id });
      kept.push(img.id);
      await tx
        .update(productImages)
        .set({ url: img.url, rank, ...(img.metadata !== undefined ? { metadata: img.metadata } : {}), updated_at: now })
        .where(eq(productImages.id, img.id));
    }
  }
  const gone = existing.map((r) => r.id).filter((id) => !kept.includes(id));
  if (gone.length) {
    await tx.delete(productVariantImages).where(inArray(productVariantImages.image_id, gone));
    await tx.delete(productImages).where(inArray(productImages.id, gone));
  }
  const added = [...images.entries()]
    .filter(([, img]) => img.id === undefined)
    .map(([rank, img]) => ({
      id: newId('img'),
      product_id: productId,
      url: img.url,
      rank,
      metadata: img.metadata ?? null,
      created_at: now,
      updated_at: now,
    }));
  if (added.length) await tx.insert(productImages).values(added);
}

export async function replaceTagLinks(tx: Tx, productId: string, tagIds: string[]): Promise<void> {
  await tx
    .delete(productTagLinks)
    .where(
      and(
        eq(productTagLinks.product_id, productId),
        tagIds.length ? notInArray(productTagLinks.tag_id, tagIds) : undefined,
      ),
    );
  if (tagIds.length) {
    await tx
      .insert(productTagLinks)
      .values(tagIds.map((tag_id) => ({ product_id: productId, tag_id })))
      .onConflictDoNothing();
  }
}

/** `POST /admin/products/{id}/variants/{variant_id}/images/batch`: image ids must be the product's own. */
export async function batchVariantImages(
  tx: Tx,
  productId: string,
  variantId: string,
  input: { add?: string[]; remove?: string[] },
): Promise<void> {
  const add = [...new Set(input.add ?? [])];
  if (add.length) {
    const own = await tx
      .select({ id: productImages.id })
      .from(productImages)
      .where(and(eq(productImages.product_id, productId), inArray(productImages.id, add)));
    const missing = add.filter((id) => !own.some((r) => r.id === id));
    if (missing.length) throw errors.invalid('images_not_in_product', { ids: missing.join(', '), product: productId });
    await tx
      .insert(productVariantImages)
      .values(add.map((image_id) => ({ variant_id: variantId, image_id })))
      .onConflictDoNothing();
  }
  const remove = (input.remove ?? []).filter((id) => !add.includes(id));
  if (remove.length) {
    await tx
      .delete(productVariantImages)
      .where(and(eq(productVariantImages.variant_id, variantId), inArray(productVariantImages.image_id, remove)));
  }
}

/**
 * `POST /admin/products/{id}/images/{image_id}/variants/batch`: which of the product's live variants
 * show this image (`variantIds`: the product's live variants, read by the caller).
 */
export async function batchImageVariants(
  tx: Tx,
  productId: string,
  imageId: string,
  variantIds: Set<string>,
  input: { add?: string[]; remove?: string[] },
): Promise<void> {
  const [image] = await tx
    .select({ id: productImages.id })
    .from(productImages)
    .where(and(eq(productImages.product_id, productId), eq(productImages.id, imageId)));
  if (!image) throw errors.notFound('product_image_not_found', { id: imageId, product: productId });
  const add = [...new Set(input.add ?? [])];
  const missing = add.filter((id) => !variantIds.has(id));
  if (missing.length) throw errors.invalid('variants_not_in_product', { ids: missing.join(', '), product: productId });
  if (add.length) {
    await tx
      .insert(productVariantImages)
      .values(add.map((variant_id) => ({ variant_id, image_id: imageId })))
      .onConflictDoNothing();
  }
  const remove = (input.remove ?? []).filter((id) => !add.includes(id));
  if (remove.length) {
    await tx
      .delete(productVariantImages)
      .where(and(eq(productVariantImages.image_id, imageId), inArray(productVariantImages.variant_id, remove)));
  }
}
