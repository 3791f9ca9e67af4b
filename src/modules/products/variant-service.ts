import type { Static } from 'typebox';
import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { productsChanged } from './link-service.ts';
import { findAdminProduct } from './queries.ts';
import { assertPrices, assertVariantOptions, skuTaken, translateUniqueViolation } from './rules.ts';
import type {
  BatchVariantsInput,
  BatchVariantsResponse,
  CreateVariantInput,
  Variant,
  VariantInput,
  VariantListFilters,
} from './schema.ts';
import { productNotFound, type ProductJson } from './service.ts';
import { findAdminVariants, findVariantJson, listVariantsJson } from './variant-queries.ts';
import { assertSkusFree, newVariantRows, priceRows } from './variant-writes.ts';
import {
  findTakenSkus,
  insertPrices,
  insertVariants,
  listLiveVariants,
  listOptions,
  lockLiveProduct,
  lockLiveVariant,
  replaceVariantPrices,
  softDeleteVariants,
  updateVariantRow,
} from './write-queries.ts';

/**
 * One product's variants, one at a time or in a batch (Medusa's `/admin/products/{id}/variants`).
 * Each write locks its product, checks what `POST /admin/products` checks (prices, options the
 * product declares, SKUs free), and ends as every product write does (`productsChanged`): the
 * product's `updated_at` moves, its store document is rebuilt and `product.updated` is emitted, all
 * in the write's transaction. A new stock-managed variant gets its inventory item and level from
 * the variant insert trigger, as one created with its product does.
 */

type VariantJson = Static<typeof Variant>;
type BatchVariantsResult = Static<typeof BatchVariantsResponse>;

export const variantNotFound = (id: string, product: string) =>
  errors.notFound('product_variant_not_found', { id, product });

export function listProductVariants(ctx: Ctx, productId: string, query: VariantListFilters): Promise<string> {
  const { product_id: _ignored, ...filters } = query;
  return listVariantsJson(ctx.db, { ...filters, product_id: [productId] }, pageOf(query, 50), {
    units: ctx.amountUnits,
    withProduct: false,
    fallbackOrder: 'v.variant_rank, v.id',
  });
}

/** `GET /admin/product-variants`: every live variant, each with its product. */
export function listAllVariants(ctx: Ctx, query: VariantListFilters): Promise<string> {
  return listVariantsJson(ctx.db, query, pageOf(query, 50), {
    units: ctx.amountUnits,
    withProduct: true,
    fallbackOrder: 'v.id',
  });
}

export async function getProductVariant(ctx: Ctx, productId: string, variantId: string): Promise<string> {
  const body = await findVariantJson(ctx.db, productId, variantId, ctx.amountUnits);
  if (!body) throw variantNotFound(variantId, productId);
  return body;
}

async function lockProduct(tctx: TxCtx, productId: string): Promise<void> {
  if (!(await lockLiveProduct(tctx.tx, productId))) throw productNotFound(productId);
}

async function productAfter(tctx: TxCtx, productId: string): Promise<ProductJson> {
  await productsChanged(tctx, [productId]);
  return (await findAdminProduct<ProductJson>(tctx.tx, productId))!;
}

/** A write of the product's variants in one transaction, with its unique violations as 400s. */
function variantWrite<T>(ctx: Ctx, productId: string, write: (tctx: TxCtx) => Promise<T>): Promise<T> {
  return inTx(ctx, async (tctx) => {
    try {
      await lockProduct(tctx, productId);
      return await write(tctx);
    } catch (err) {
      throw translateUniqueViolation(err);
    }
  });
}

/** New variants after the existing ones (unless they name their `variant_rank`); their ids in order. */
async function createIn(tctx: TxCtx, productId: string, items: CreateVariantInput[]): Promise<string[]> {
  if (!items.length) return [];
  const { tx } = tctx;
  const options = await listOptions(tx, productId);
  for (const v of items) {
    assertPrices(v.title, v.prices ?? []);
    assertVariantOptions(v.title, v.options, options);
  }
  await assertSkusFree(
    tx,
    items.map((v) => v.sku),
  );
  const after = (await listLiveVariants(tx, productId)).length;
  const { rows, prices } = newVariantRows(
    productId,
    items.map((item, i) => ({ item, index: after + i })),
    tctx.clock.now(),
  );
  await insertVariants(tx, rows);
  await insertPrices(tx, prices);
  return rows.map((r) => r.id);
}

/** Changes the fields given; `prices` replaces the variant's prices, `options` its option values. */
async function updateIn(tctx: TxCtx, productId: string, variantId: string, input: VariantInput): Promise<void> {
  const { tx } = tctx;
  const current = await lockLiveVariant(tx, productId, variantId);
  if (!current) throw variantNotFound(variantId, productId);
  const title = input.title ?? current.title;
  assertPrices(title, input.prices ?? []);
  assertVariantOptions(title, input.options ?? current.options, await listOptions(tx, productId));
  if (input.sku != null && input.sku !== current.sku) {
    const [taken] = await findTakenSkus(tx, [input.sku]);
    if (taken) throw skuTaken(taken);
  }
  const now = tctx.clock.now();
  const { id: _id, prices, ...fields } = input;
  const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  await updateVariantRow(tx, variantId, { ...patch, updated_at: now });
  if (prices) await replaceVariantPrices(tx, variantId, priceRows(variantId, prices, now));
}

async function deleteIn(tctx: TxCtx, productId: string, ids: string[]): Promise<void> {
  const live = new Set((await listLiveVariants(tctx.tx, productId)).map((v) => v.id));
  const missing = ids.find((id) => !live.has(id));
  if (missing) throw variantNotFound(missing, productId);
  await softDeleteVariants(tctx.tx, ids, tctx.clock.now());
}

/** `POST /admin/products/{id}/variants`: answers the product, as Medusa does. */
export function createVariant(ctx: Ctx, productId: string, input: CreateVariantInput): Promise<ProductJson> {
  return variantWrite(ctx, productId, async (tctx) => {
    await createIn(tctx, productId, [input]);
    return productAfter(tctx, productId);
  });
}

export function updateVariant(ctx: Ctx, productId: string, variantId: string, input: VariantInput) {
  return variantWrite(ctx, productId, async (tctx) => {
    await updateIn(tctx, productId, variantId, input);
    return productAfter(tctx, productId);
  });
}

/** Soft delete (its SKU becomes free); answers Medusa's `{ id, object, deleted, parent }`. */
export function deleteVariant(ctx: Ctx, productId: string, variantId: string) {
  return variantWrite(ctx, productId, async (tctx) => {
    await deleteIn(tctx, productId, [variantId]);
    const parent = await productAfter(tctx, productId);
    return { id: variantId, object: 'variant' as const, deleted: true as const, parent };
  });
}

/**
 * `POST /admin/products/{id}/variants/batch`: all or nothing. Deletes first, so a SKU a deleted
 * variant held can go to a new one in the same request; then updates, then creates.
 */
export function batchVariants(ctx: Ctx, productId: string, input: BatchVariantsInput): Promise<BatchVariantsResult> {
  const remove = [...new Set(input.delete ?? [])];
  const update = input.update ?? [];
  const updated = new Set<string>();
  for (const { id } of update) {
    if (updated.has(id)) throw errors.invalid('variant_listed_twice', { id });
    updated.add(id);
  }
  return variantWrite(ctx, productId, async (tctx) => {
    await deleteIn(tctx, productId, remove);
    for (const { id, ...patch } of update) await updateIn(tctx, productId, id, patch);
    const created = await createIn(tctx, productId, input.create ?? []);
    await productsChanged(tctx, [productId]);
    return {
      created: await findAdminVariants<VariantJson>(tctx.tx, created),
      updated: await findAdminVariants<VariantJson>(
        tctx.tx,
        update.map((u) => u.id),
      ),
      deleted: { ids: remove, object: 'variant' as const, deleted: true as const },
    };
  });
}
