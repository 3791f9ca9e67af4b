import type { TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { assertAllReferences, insertVariantsWithStock } from './bulk-create.ts';
import type { productImages } from './media-tables.ts';
import {
  clearSkusSet,
  deleteImagesSet,
  deleteOptionsSet,
  emitProductEvents,
  firstTakenHandle,
  imagesOf,
  insertChunked,
  insertImagesSet,
  insertOptionsSet,
  liveVariantsOf,
  lockLiveProductsOf,
  optionsOf,
  PRODUCT_PATCH_COLUMNS,
  replaceCategoryLinksSet,
  replaceChannelLinksSet,
  replacePricesSet,
  replaceTagLinksSet,
  skusTakenOutside,
  softDeleteVariantsSet,
  updateImagesSet,
  updateOptionsSet,
  updateProductsSet,
  updateVariantsSet,
  VARIANT_PATCH_COLUMNS,
} from './bulk-write-queries.ts';
import {
  assertOptionsWellFormed,
  assertPrices,
  assertUniqueSkus,
  assertVariantOptions,
  handleTaken,
  skuTaken,
  translateUniqueViolation,
} from './rules.ts';
import type { UpdateProductInput, VariantInput } from './schema.ts';
import { productNotFound } from './service.ts';
import { newVariantRows, priceRows } from './variant-writes.ts';
import { insertPrices, type OptionRow, type PriceInsert, type VariantRow } from './write-queries.ts';

export type ProductUpdate = UpdateProductInput & { id: string };
type DeclaredOptions = { title: string; values: string[] }[];

/**
 * Many products updated in the caller's transaction, each as updateProductIn changes one (the same
 * checks, errors, rows and `product.updated` payload), in a fixed number of statements whatever
 * their count: the set's products are locked and read together, each check runs once for the
 * whole set, and each table gets one statement for all (bulk-write-queries.ts). A CSV import's
 * batch of updates costs about thirty round trips instead of twenty per product. Any refusal
 * throws, so the caller's transaction holds all of the set or none. Each product may appear once.
 * Store documents are the caller's (refreshStoreDocuments once for the batch). Returns the ids,
 * in the order given.
 */
export async function updateProductsIn(tctx: TxCtx, updates: ProductUpdate[]): Promise<string[]> {
  return (await writeUpdates(tctx, updates, false)).ids;
}

/**
 * updateProductsIn answering each product's admin JSON after its update, in the order given: the
 * payload its `product.updated` carries, handed back by the same statement (the batch answers it).
 */
export async function updateProductsAnswered<T>(tctx: TxCtx, updates: ProductUpdate[]): Promise<T[]> {
  const { ids, answers } = await writeUpdates(tctx, updates, true);
  return ids.map((id) => answers.get(id) as T);
}

async function writeUpdates(
  tctx: TxCtx,
  updates: ProductUpdate[],
  answer: boolean,
): Promise<{ ids: string[]; answers: Map<string, unknown> }> {
  if (!updates.length) return { ids: [], answers: new Map() };
  const { tx } = tctx;
  const now = tctx.clock.now();
  const ids = updates.map((u) => u.id);
  if (new Set(ids).size !== ids.length) throw new Error('updateProductsIn: a product is listed twice');
  try {
    const live = new Map((await lockLiveProductsOf(tx, ids)).map((p) => [p.id, p.handle]));
    const gone = ids.find((id) => !live.has(id));
    if (gone) throw productNotFound(gone);
    await assertHandlesFree(tctx, updates, live);
    await assertAllReferences(tctx, updates);
    const options = await syncOptionsOf(tctx, updates);
    await syncVariantsOf(tctx, updates, options, now);
    await updateProductsSet(
      tx,
      updates.map((u) => ({ id: u.id, p: pick(u, Object.keys(PRODUCT_PATCH_COLUMNS)) })),
      now,
    );
    await replaceLinks(tctx, updates);
    await replaceImagesOf(tctx, updates, now);
    return { ids, answers: await emitProductEvents(tx, 'product.updated', ids, now, answer) };
  } catch (err) {
    // A handle or SKU a concurrent writer took after the checks: a 400 like theirs.
    throw translateUniqueViolation(err);
  }
}

/** The fields of `input` among `keys` that are given (undefined: left as they are). */
function pick(input: object, keys: string[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const k of keys) {
    const v = (input as Record<string, unknown>)[k];
    if (v !== undefined) patch[k] = v;
  }
  return patch;
}

/** A new handle must be free: no live product holds it, and no other product of the set takes it too. */
async function assertHandlesFree(tctx: TxCtx, updates: ProductUpdate[], live: Map<string, string>) {
  const changing = updates.flatMap((u) => (u.handle !== undefined && u.handle !== live.get(u.id) ? [u.handle] : []));
  const seen = new Set<string>();
  for (const h of changing) {
    if (seen.has(h)) throw handleTaken(h);
    seen.add(h);
  }
  const taken = await firstTakenHandle(tctx.tx, changing);
  if (taken) throw handleTaken(taken);
}

/**
 * syncOptions for the set: options keep their id when their title stays, others go, new ones are
 * added. Answers each product's declared options after the update (the variants are checked on them).
 */
async function syncOptionsOf(tctx: TxCtx, updates: ProductUpdate[]): Promise<Map<string, DeclaredOptions>> {
  const existing = await optionsOf(
    tctx.tx,
    updates.map((u) => u.id),
  );
  const byProduct = new Map<string, OptionRow[]>();
  for (const o of existing) byProduct.set(o.product_id, [...(byProduct.get(o.product_id) ?? []), o]);
  const declared = new Map<string, DeclaredOptions>();
  const changed: { id: string; values: string[]; rank: number }[] = [];
  const removed: string[] = [];
  const added: OptionRow[] = [];
  for (const u of updates) {
    const own = byProduct.get(u.id) ?? [];
    if (!u.options) {
      declared.set(u.id, own);
      continue;
    }
    assertOptionsWellFormed(u.options);
    const byTitle = new Map(own.map((o) => [o.title, o]));
    const kept = new Set<string>();
    for (const [rank, o] of u.options.entries()) {
      const old = byTitle.get(o.title);
      if (old) {
        kept.add(old.id);
        changed.push({ id: old.id, values: o.values, rank });
      } else added.push({ id: newId('opt'), product_id: u.id, title: o.title, values: o.values, rank });
    }
    removed.push(...own.filter((o) => !kept.has(o.id)).map((o) => o.id));
    declared.set(u.id, u.options);
  }
  await updateOptionsSet(tctx.tx, changed);
  await deleteOptionsSet(tctx.tx, removed);
  await insertOptionsSet(tctx.tx, added);
  return declared;
}

type NewVariant = VariantInput & { title: string };

/**
 * syncVariants for the set: a product given `variants` gets exactly that list (items with an id
 * change that variant, items without one are new, live variants left out are soft-deleted); one
 * given none has its variants checked against its options. New variants get their stock as the
 * insert trigger would, for the set at once (inventory/new-variant-stock.ts).
 */
async function syncVariantsOf(
  tctx: TxCtx,
  updates: ProductUpdate[],
  options: Map<string, DeclaredOptions>,
  now: Date,
): Promise<void> {
  const { tx } = tctx;
  const existing = await liveVariantsOf(
    tx,
    updates.map((u) => u.id),
  );
  const byProduct = new Map<string, VariantRow[]>();
  for (const v of existing) byProduct.set(v.product_id, [...(byProduct.get(v.product_id) ?? []), v]);

  const deleted: string[] = [];
  const changes: { item: VariantInput; current: VariantRow }[] = [];
  const created: ReturnType<typeof newVariantRows>['rows'] = [];
  const createdPrices: PriceInsert[] = [];
  const finalSkus: (string | null | undefined)[] = [];
  const replacing: string[] = [];
  for (const u of updates) {
    const own = byProduct.get(u.id) ?? [];
    const declared = options.get(u.id) ?? [];
    if (!u.variants) {
      for (const v of own) assertVariantOptions(v.title, v.options, declared);
      continue;
    }
    replacing.push(u.id);
    const byId = new Map(own.map((v) => [v.id, v]));
    const mine: { item: VariantInput; current: VariantRow }[] = [];
    const creates: { item: NewVariant; index: number }[] = [];
    u.variants.forEach((item, index) => {
      if (item.id) {
        const current = byId.get(item.id);
        if (!current) throw errors.invalid('variant_not_in_product', { id: item.id, product: u.id });
        if (mine.some((c) => c.current.id === item.id)) throw errors.invalid('variant_listed_twice', { id: item.id });
        mine.push({ item, current });
      } else {
        if (item.title === undefined) throw errors.invalid('variant_title_required', { index });
        creates.push({ item: item as NewVariant, index });
      }
    });
    for (const { item, current } of mine) {
      const title = item.title ?? current.title;
      assertPrices(title, item.prices ?? []);
      assertVariantOptions(title, item.options ?? current.options, declared);
    }
    for (const { item } of creates) {
      assertPrices(item.title, item.prices ?? []);
      assertVariantOptions(item.title, item.options, declared);
    }
    const kept = new Set(mine.map((c) => c.current.id));
    deleted.push(...own.filter((v) => !kept.has(v.id)).map((v) => v.id));
    changes.push(...mine);
    finalSkus.push(...mine.map(finalSku), ...creates.map((c) => c.item.sku));
    const made = newVariantRows(u.id, creates, now);
    created.push(...made.rows);
    createdPrices.push(...made.prices);
  }
  // One at a time, a product's SKUs are checked against every other product, the set's included.
  assertUniqueSkus(finalSkus);
  const [taken] = await skusTakenOutside(
    tx,
    finalSkus.filter((s): s is string => s != null),
    replacing,
  );
  if (taken) throw skuTaken(taken);

  await softDeleteVariantsSet(tx, deleted, now);
  await clearSkusSet(
    tx,
    changes.filter((c) => finalSku(c) !== c.current.sku).map((c) => c.current.id),
  );
  const keys = Object.keys(VARIANT_PATCH_COLUMNS);
  await updateVariantsSet(
    tx,
    changes.map((c) => ({ id: c.current.id, sku: finalSku(c) ?? null, p: pick(c.item, keys) })),
    now,
  );
  const repriced = changes.filter((c) => c.item.prices);
  await replacePricesSet(
    tx,
    repriced.map((c) => c.current.id),
    repriced.flatMap((c) => priceRows(c.current.id, c.item.prices, now)),
  );
  if (!created.length) return;
  await insertVariantsWithStock(tx, created, now);
  await insertChunked(createdPrices, (chunk) => insertPrices(tx, chunk));
}

const finalSku = (c: { item: VariantInput; current: VariantRow }) =>
  c.item.sku !== undefined ? c.item.sku : c.current.sku;

const unique = (ids: string[]) => [...new Set(ids)];

/** Sales channels, categories and tags: each list given replaces the product's (service.ts). */
async function replaceLinks(tctx: TxCtx, updates: ProductUpdate[]) {
  const { tx } = tctx;
  const given = <K extends 'sales_channels' | 'categories' | 'tags'>(key: K) =>
    updates.filter((u): u is ProductUpdate & Required<Pick<ProductUpdate, K>> => u[key] !== undefined);
  const channels = given('sales_channels');
  await replaceChannelLinksSet(
    tx,
    channels.map((u) => u.id),
    channels.flatMap((u) =>
      unique(u.sales_channels.map((c) => c.id)).map((sales_channel_id) => ({ product_id: u.id, sales_channel_id })),
    ),
  );
  const categories = given('categories');
  await replaceCategoryLinksSet(
    tx,
    categories.map((u) => u.id),
    categories.flatMap((u) =>
      unique(u.categories.map((c) => c.id)).map((category_id) => ({ product_id: u.id, category_id })),
    ),
  );
  const tags = given('tags');
  await replaceTagLinksSet(
    tx,
    tags.map((u) => u.id),
    tags.flatMap((u) => unique(u.tags.map((t) => t.id)).map((tag_id) => ({ product_id: u.id, tag_id }))),
  );
}

/** replaceImages for the set: the gallery becomes the list, in its order; an item with a known `id` keeps that image. */
async function replaceImagesOf(tctx: TxCtx, updates: ProductUpdate[], now: Date) {
  const withImages = updates.filter((u) => u.images !== undefined);
  if (!withImages.length) return;
  const existing = await imagesOf(
    tctx.tx,
    withImages.map((u) => u.id),
  );
  const owner = new Map(existing.map((i) => [i.id, i.product_id]));
  const keptAll = new Set<string>();
  const changed: { id: string; url: string; rank: number; p: Record<string, unknown> }[] = [];
  const added: (typeof productImages.$inferInsert)[] = [];
  for (const u of withImages) {
    const kept: string[] = [];
    for (const [rank, img] of (u.images ?? []).entries()) {
      if (img.id === undefined) {
        added.push({
          id: newId('img'),
          product_id: u.id,
          url: img.url,
          rank,
          metadata: img.metadata ?? null,
          created_at: now,
          updated_at: now,
        });
        continue;
      }
      if (owner.get(img.id) !== u.id) throw errors.invalid('image_not_in_product', { id: img.id, product: u.id });
      if (kept.includes(img.id)) throw errors.invalid('image_listed_twice', { id: img.id });
      kept.push(img.id);
      keptAll.add(img.id);
      changed.push({ id: img.id, url: img.url, rank, p: pick(img, ['metadata']) });
    }
  }
  await updateImagesSet(tctx.tx, changed, now);
  await deleteImagesSet(
    tctx.tx,
    existing.filter((i) => !keptAll.has(i.id)).map((i) => i.id),
  );
  await insertImagesSet(tctx.tx, added);
}
