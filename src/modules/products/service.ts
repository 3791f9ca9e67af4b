import type { Static } from 'typebox';
import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import type { Tx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { findAdminProduct, findAdminProductJson, listAdminProductsJson } from './queries.ts';
import { listAdminPageJson } from './uncounted-list.ts';
import { PHYSICAL } from './product-row.ts';
import { assertOptionsWellFormed, handleTaken, translateUniqueViolation } from './rules.ts';
import { createProductsAnswered } from './bulk-create.ts';
import { deleteProductsIn } from './bulk-delete.ts';
import type { AdminListFilters, CreateProductInput, OptionsInput, Product, UpdateProductInput } from './schema.ts';
import { assertLiveRefs } from './link-service.ts';
import { replaceImages, replaceTagLinks } from './media-writes.ts';
import { refreshStoreDocuments } from './store-documents.ts';
import { syncVariants } from './variant-writes.ts';
import {
  deleteOptions,
  findLiveSalesChannelIds,
  insertOptions,
  isHandleTaken,
  listOptions,
  lockLiveProduct,
  replaceCategoryLinks,
  replaceSalesChannelLinks,
  updateOption,
  updateProductRow,
} from './write-queries.ts';

export type ProductJson = Static<typeof Product>;

export const productNotFound = (id: string) => errors.notFound('product_not_found', { id });

/** Admin list as ready-to-send JSON text (built by PostgreSQL in one statement). */
export function listAdminProducts(ctx: Ctx, query: AdminListFilters): Promise<string> {
  const page = pageOf(query, 50);
  return query.count === false
    ? listAdminPageJson(ctx.db, query, page, ctx.amountUnits)
    : listAdminProductsJson(ctx.db, query, page, ctx.amountUnits);
}

export async function getAdminProduct(ctx: Ctx, id: string): Promise<string> {
  const body = await findAdminProductJson(ctx.db, id, ctx.amountUnits);
  if (!body) throw productNotFound(id);
  return body;
}

const uniqueIds = (refs: { id: string }[]) => [...new Set(refs.map((r) => r.id))];

/** Sorted, so that concurrent writers lock the channels' counter rows in the same order. */
async function liveChannelIds(tx: Tx, refs: { id: string }[]): Promise<string[]> {
  const ids = uniqueIds(refs).sort();
  const found = new Set(await findLiveSalesChannelIds(tx, ids));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw errors.invalid('sales_channels_missing', { ids: missing.join(', ') });
  return ids;
}

/** Every id the input refers to must be a live collection, type, category and tag (else 400, nothing written). */
async function assertReferences(tctx: TxCtx, input: UpdateProductInput): Promise<void> {
  if (input.collection_id)
    await assertLiveRefs(tctx, 'product_collections', 'Product collections', [input.collection_id]);
  if (input.type_id) await assertLiveRefs(tctx, 'product_types', 'Product types', [input.type_id]);
  if (input.shipping_profile_id)
    await assertLiveRefs(tctx, 'shipping_profiles', 'Shipping profiles', [input.shipping_profile_id]);
  await assertLiveRefs(
    tctx,
    'categories',
    'Product categories',
    (input.categories ?? []).map((c) => c.id),
  );
  await assertLiveRefs(
    tctx,
    'product_tags',
    'Product tags',
    (input.tags ?? []).map((t) => t.id),
  );
}

/**
 * Creates and deletes sit on the set-based writes (createProductsIn in bulk-create.ts,
 * deleteProductsIn in bulk-delete.ts), a set of one here and of many in `POST
 * /admin/products/batch` and the CSV import, so each rule of a new or deleted product is written
 * once. Updates come twice: updateProduct below, and updateProductsIn (bulk-update.ts) with the
 * same checks, rows and event for a set. The `…In` writes run in the caller's transaction and
 * leave the store documents to it, which rebuilds them once for every id it touched
 * (refreshStoreDocuments) before it commits.
 */

/** Product, options, variants, stock, prices, images, links and the `product.created` event commit together. */
export function createProduct(ctx: Ctx, input: CreateProductInput): Promise<ProductJson> {
  return inTx(ctx, async (tctx) => {
    const [product] = await createProductsAnswered<ProductJson>(tctx, [input]);
    await refreshStoreDocuments(tctx.tx, [product.id]);
    return product;
  });
}

/** Any create field; `variants`, `options`, `sales_channels` and `categories` replace what exists. */
export function updateProduct(ctx: Ctx, id: string, input: UpdateProductInput): Promise<ProductJson> {
  return inTx(ctx, async (tctx) => {
    const product = await updateProductIn(tctx, id, input);
    await refreshStoreDocuments(tctx.tx, [id]);
    return product;
  });
}

/**
 * Soft delete of the product and its variants; the handle becomes free again. An id of no live
 * product is a 404 here (Medusa answers 200, as this module's batch does: bulk-delete.ts).
 */
export function deleteProduct(ctx: Ctx, id: string): Promise<void> {
  return inTx(ctx, async (tctx) => {
    if (!(await deleteProductsIn(tctx, [id])).length) throw productNotFound(id);
    await refreshStoreDocuments(tctx.tx, [id]);
  });
}

/** Replaces the option list: options keep their id when their title stays. */
async function syncOptions(tx: Tx, productId: string, input: OptionsInput | undefined) {
  const existing = await listOptions(tx, productId);
  if (!input) return existing;
  assertOptionsWellFormed(input);
  const byTitle = new Map(existing.map((o) => [o.title, o]));
  const kept = new Set<string>();
  const added = [];
  for (const [rank, o] of input.entries()) {
    const old = byTitle.get(o.title);
    if (old) {
      kept.add(old.id);
      await updateOption(tx, old.id, { values: o.values, rank });
    } else added.push({ id: newId('opt'), product_id: productId, title: o.title, values: o.values, rank });
  }
  await deleteOptions(
    tx,
    existing.filter((o) => !kept.has(o.id)).map((o) => o.id),
  );
  await insertOptions(tx, added);
  return input;
}

const SCALAR_FIELDS = [
  'title',
  'subtitle',
  'description',
  'handle',
  'status',
  'thumbnail',
  'is_giftcard',
  'discountable',
  'collection_id',
  'external_id',
  'type_id',
  'shipping_profile_id',
  'metadata',
  ...PHYSICAL,
] as const;

/** updateProduct in the caller's transaction (store documents: see above). */
export async function updateProductIn(tctx: TxCtx, id: string, input: UpdateProductInput): Promise<ProductJson> {
  const { tx } = tctx;
  try {
    const current = await lockLiveProduct(tx, id);
    if (!current) throw productNotFound(id);
    if (input.handle !== undefined && input.handle !== current.handle && (await isHandleTaken(tx, input.handle, id))) {
      throw handleTaken(input.handle);
    }
    await assertReferences(tctx, input);
    const now = tctx.clock.now();
    const patch = Object.fromEntries(SCALAR_FIELDS.filter((f) => input[f] !== undefined).map((f) => [f, input[f]]));
    await updateProductRow(tx, id, { ...patch, updated_at: now });
    const options = await syncOptions(tx, id, input.options);
    await syncVariants(tx, id, input.variants, options, now);
    if (input.sales_channels) await replaceSalesChannelLinks(tx, id, await liveChannelIds(tx, input.sales_channels));
    if (input.categories) await replaceCategoryLinks(tx, id, uniqueIds(input.categories));
    if (input.tags) await replaceTagLinks(tx, id, uniqueIds(input.tags));
    if (input.images) await replaceImages(tx, id, input.images, now);
    const product = (await findAdminProduct<ProductJson>(tx, id))!;
    await emit(tctx, 'product.updated', product);
    return product;
  } catch (err) {
    throw translateUniqueViolation(err, input.handle);
  }
}
