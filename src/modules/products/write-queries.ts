import { and, eq, inArray, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { findLiveRow, isLiveValueTaken, liveIdsAmong } from '../../platform/db/live-rows.ts';
import { salesChannels } from '../sales-channels/tables.ts';
import {
  prices,
  productCategories,
  productOptions,
  productSalesChannels,
  products,
  productVariants,
} from './tables.ts';

/** Write-side queries of the products module (reads that build JSON are in queries.ts). */

export type ProductRow = typeof products.$inferSelect;
export type OptionRow = typeof productOptions.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type PriceInsert = typeof prices.$inferInsert;

/** A variant's one price without quantity tiers per currency: a write of it replaces the amount. */
export const PLAIN_PRICE_UPSERT = {
  target: [prices.variant_id, prices.currency_code],
  targetWhere: sql`min_quantity is null and max_quantity is null`,
  set: { amount: sql`excluded.amount`, updated_at: sql`excluded.updated_at` },
};

/** Locks the live product row for the rest of the transaction, so concurrent updates serialize. */
export function lockLiveProduct(db: Executor, id: string): Promise<ProductRow | undefined> {
  return findLiveRow(db, products, id, 'update');
}

export function isHandleTaken(db: Executor, handle: string, exceptId?: string): Promise<boolean> {
  return isLiveValueTaken(db, products, products.handle, handle, exceptId);
}

/** SKUs among `skus` already used by a live variant of another product. */
export async function findTakenSkus(db: Executor, skus: string[], exceptProductId?: string): Promise<string[]> {
  if (!skus.length) return [];
  const found = await db
    .select({ sku: productVariants.sku })
    .from(productVariants)
    .where(
      and(
        inArray(productVariants.sku, skus),
        isNull(productVariants.deleted_at),
        exceptProductId ? ne(productVariants.product_id, exceptProductId) : undefined,
      ),
    );
  return found.map((r) => r.sku!);
}

export function findLiveSalesChannelIds(db: Executor, ids: string[]): Promise<string[]> {
  return liveIdsAmong(db, salesChannels, ids);
}

export async function updateProductRow(
  db: Executor,
  id: string,
  patch: Partial<typeof products.$inferInsert>,
): Promise<void> {
  await db.update(products).set(patch).where(eq(products.id, id));
}

export async function listOptions(db: Executor, productId: string): Promise<OptionRow[]> {
  return db
    .select()
    .from(productOptions)
    .where(eq(productOptions.product_id, productId))
    .orderBy(productOptions.rank, productOptions.id);
}

export async function insertOptions(db: Executor, rows: OptionRow[]): Promise<void> {
  if (rows.length) await db.insert(productOptions).values(rows);
}

export async function updateOption(db: Executor, id: string, patch: { values: string[]; rank: number }): Promise<void> {
  await db.update(productOptions).set(patch).where(eq(productOptions.id, id));
}

export async function deleteOptions(db: Executor, ids: string[]): Promise<void> {
  if (ids.length) await db.delete(productOptions).where(inArray(productOptions.id, ids));
}

export async function listLiveVariants(db: Executor, productId: string): Promise<VariantRow[]> {
  return db
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.product_id, productId), isNull(productVariants.deleted_at)))
    .orderBy(productVariants.variant_rank, productVariants.id);
}

export async function insertVariants(db: Executor, rows: (typeof productVariants.$inferInsert)[]): Promise<void> {
  if (rows.length) await db.insert(productVariants).values(rows);
}

export async function updateVariantRow(
  db: Executor,
  id: string,
  patch: Partial<typeof productVariants.$inferInsert>,
): Promise<void> {
  await db.update(productVariants).set(patch).where(eq(productVariants.id, id));
}

/** Frees the SKUs of variants about to change theirs, so two variants can swap SKUs in one update. */
export async function clearVariantSkus(db: Executor, ids: string[]): Promise<void> {
  if (ids.length) await db.update(productVariants).set({ sku: null }).where(inArray(productVariants.id, ids));
}

export async function softDeleteVariants(db: Executor, ids: string[], now: Date): Promise<void> {
  if (ids.length)
    await db.update(productVariants).set({ deleted_at: now, updated_at: now }).where(inArray(productVariants.id, ids));
}

export async function insertPrices(db: Executor, rows: PriceInsert[]): Promise<void> {
  if (rows.length) await db.insert(prices).values(rows);
}

/**
 * Replaces a variant's prices; a currency whose range-less price stays keeps its price id. Tiered
 * prices (with a quantity range) are replaced whole.
 */
export async function replaceVariantPrices(db: Executor, variantId: string, rows: PriceInsert[]): Promise<void> {
  const plain = rows.filter((r) => r.min_quantity == null && r.max_quantity == null);
  const tiers = rows.filter((r) => !plain.includes(r));
  const currencies = plain.map((r) => r.currency_code);
  await db.delete(prices).where(
    and(
      eq(prices.variant_id, variantId),
      // Without a range-less price left, every price goes.
      currencies.length
        ? or(
            sql`${prices.min_quantity} is not null or ${prices.max_quantity} is not null`,
            notInArray(prices.currency_code, currencies),
          )
        : undefined,
    ),
  );
  if (tiers.length) await db.insert(prices).values(tiers);
  if (!plain.length) return;
  await db.insert(prices).values(plain).onConflictDoUpdate(PLAIN_PRICE_UPSERT);
}

export async function replaceSalesChannelLinks(db: Executor, productId: string, channelIds: string[]): Promise<void> {
  await db.delete(productSalesChannels).where(eq(productSalesChannels.product_id, productId));
  if (channelIds.length) {
    await db
      .insert(productSalesChannels)
      .values(channelIds.map((id) => ({ product_id: productId, sales_channel_id: id })));
  }
}

export async function replaceCategoryLinks(db: Executor, productId: string, categoryIds: string[]): Promise<void> {
  await db.delete(productCategories).where(eq(productCategories.product_id, productId));
  if (categoryIds.length) {
    await db.insert(productCategories).values(categoryIds.map((id) => ({ product_id: productId, category_id: id })));
  }
}

/** The product's live variant with this id, locked for the transaction. */
export async function lockLiveVariant(db: Executor, productId: string, id: string): Promise<VariantRow | undefined> {
  const [row] = await db
    .select()
    .from(productVariants)
    .where(
      and(eq(productVariants.id, id), eq(productVariants.product_id, productId), isNull(productVariants.deleted_at)),
    )
    .for('update');
  return row;
}

/** An option of a live product, and that product's id. */
export async function findLiveOption(db: Executor, id: string): Promise<OptionRow | undefined> {
  const [row] = await db
    .select()
    .from(productOptions)
    .innerJoin(products, and(eq(products.id, productOptions.product_id), isNull(products.deleted_at)))
    .where(eq(productOptions.id, id));
  return row?.product_options;
}

export async function updateOptionRow(db: Executor, id: string, patch: Partial<OptionRow>): Promise<void> {
  await db.update(productOptions).set(patch).where(eq(productOptions.id, id));
}

/**
 * Variants keep their choices as `{ <option title>: <value> }`: a renamed option moves the key, a
 * renamed value changes the entry, a removed option drops the key, in the product's live variants.
 */
export async function renameOptionInVariants(db: Executor, productId: string, from: string, to: string) {
  await db.execute(sql`update product_variants set options = (options - ${from}::text) || jsonb_build_object(${to}::text, options -> ${from}::text)
    where product_id = ${productId} and deleted_at is null and options ? ${from}::text`);
}

export async function renameValueInVariants(db: Executor, productId: string, title: string, from: string, to: string) {
  await db.execute(sql`update product_variants set options = options || jsonb_build_object(${title}::text, ${to}::text)
    where product_id = ${productId} and deleted_at is null and options ->> ${title}::text = ${from}`);
}

export async function dropOptionFromVariants(db: Executor, productId: string, title: string) {
  await db.execute(sql`update product_variants set options = options - ${title}::text
    where product_id = ${productId} and deleted_at is null and options ? ${title}::text`);
}

/** Live variants of the product that chose `value` for the option titled `title`. */
export async function variantsUsingValue(db: Executor, productId: string, title: string, values: string[]) {
  if (!values.length) return [];
  const found = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(
      and(
        eq(productVariants.product_id, productId),
        isNull(productVariants.deleted_at),
        sql`${productVariants.options} ->> ${title}::text = any(${sql.param(values)}::text[])`,
      ),
    );
  return found.map((r) => r.id);
}
