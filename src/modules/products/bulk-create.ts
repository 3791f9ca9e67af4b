import type { TxCtx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { giveNewVariantsStock, insertVariantsWithoutStock } from '../inventory/new-variant-stock.ts';
import { productTagLinks } from '../product-labels/tables.ts';
import { assertLiveRefs } from './link-service.ts';
import { productImages } from './media-tables.ts';
import { emitProductEvents, firstTakenHandle, insertChunked } from './bulk-write-queries.ts';
import {
  assertOptionsWellFormed,
  assertPrices,
  assertUniqueSkus,
  assertVariantOptions,
  handleFromTitle,
  handleTaken,
  skuTaken,
  translateUniqueViolation,
} from './rules.ts';
import { newProductRow } from './product-row.ts';
import type { CreateProductInput } from './schema.ts';
import { productCategories, productOptions, products, productSalesChannels } from './tables.ts';
import { newVariantRows } from './variant-writes.ts';
import {
  findLiveSalesChannelIds,
  findTakenSkus,
  insertPrices,
  insertVariants,
  type PriceInsert,
} from './write-queries.ts';

/**
 * Many new products in the caller's transaction (one for the single route), in a fixed number
 * of statements whatever their count: the checks read every handle, SKU and reference of the set
 * at once, then each table gets one multi-row insert, and the `product.created` events are built
 * by PostgreSQL from the written rows in one statement. What a caller gets for it: a CSV import's
 * batch of a few hundred rows costs about twenty round trips instead of twenty per product.
 * Any refusal throws before the first insert, so the caller's transaction holds all or none.
 * Store documents are the caller's (refreshStoreDocuments once for the batch, as batch-service).
 */
export async function createProductsIn(tctx: TxCtx, inputs: CreateProductInput[]): Promise<string[]> {
  return (await writeNewProducts(tctx, inputs, false)).ids;
}

/**
 * createProductsIn answering each new product's admin JSON, in the order given: the payload its
 * `product.created` carries, which the same statement hands back, so the JSON is built once (the
 * single route and the batch answer it; an import does not need it).
 */
export async function createProductsAnswered<T>(tctx: TxCtx, inputs: CreateProductInput[]): Promise<T[]> {
  const { ids, answers } = await writeNewProducts(tctx, inputs, true);
  return ids.map((id) => answers.get(id) as T);
}

async function writeNewProducts(
  tctx: TxCtx,
  inputs: CreateProductInput[],
  answer: boolean,
): Promise<{ ids: string[]; answers: Map<string, unknown> }> {
  if (!inputs.length) return { ids: [], answers: new Map() };
  const now = tctx.clock.now();
  const planned = inputs.map((input) => {
    const id = newId('prod');
    const options = input.options ?? [];
    assertOptionsWellFormed(options);
    for (const v of input.variants ?? []) {
      assertPrices(v.title, v.prices ?? []);
      assertVariantOptions(v.title, v.options, options);
    }
    // A new product has no images yet to keep.
    const kept = (input.images ?? []).find((img) => img.id !== undefined);
    if (kept) throw errors.invalid('image_not_in_product', { id: String(kept.id), product: id });
    return { id, handle: input.handle ?? handleFromTitle(input.title), input, options };
  });
  const handles = planned.map((p) => p.handle);
  const seen = new Set<string>();
  for (const h of handles) {
    if (seen.has(h)) throw handleTaken(h);
    seen.add(h);
  }
  try {
    await assertAllFree(
      tctx,
      handles,
      planned.flatMap((p) => (p.input.variants ?? []).map((v) => v.sku)),
    );
    await assertAllReferences(tctx, inputs);
    await insertAll(tctx, planned, now);
    // One `product.created` per product, its payload the product's admin JSON, built and written
    // by one statement: the products' JSON never travels to us and back.
    const ids = planned.map((p) => p.id);
    return { ids, answers: await emitProductEvents(tctx.tx, 'product.created', ids, now, answer) };
  } catch (err) {
    // A handle or SKU a concurrent writer took after the checks: a 400 like theirs.
    throw translateUniqueViolation(err);
  }
}

async function assertAllFree(tctx: TxCtx, handles: string[], skus: (string | null | undefined)[]): Promise<void> {
  const taken = await firstTakenHandle(tctx.tx, handles);
  if (taken) throw handleTaken(taken);
  assertUniqueSkus(skus);
  const [sku] = await findTakenSkus(
    tctx.tx,
    skus.filter((s): s is string => s != null),
  );
  if (sku) throw skuTaken(sku);
}

/** The references a create or an update names (the fields assertAllReferences checks). */
type ProductRefs = Pick<
  CreateProductInput,
  'sales_channels' | 'collection_id' | 'type_id' | 'shipping_profile_id' | 'categories' | 'tags'
>;

const idsOf = (inputs: ProductRefs[], pick: (i: ProductRefs) => (string | null | undefined)[]) => [
  ...new Set(inputs.flatMap(pick).filter((id): id is string => !!id)),
];

/**
 * The references of the whole set (new products or updates): one query per kind, Medusa's 400
 * wording for the first missing.
 */
export async function assertAllReferences(tctx: TxCtx, inputs: ProductRefs[]): Promise<void> {
  const channels = idsOf(inputs, (i) => (i.sales_channels ?? []).map((c) => c.id));
  const live = new Set(await findLiveSalesChannelIds(tctx.tx, channels));
  const missing = channels.filter((id) => !live.has(id));
  if (missing.length) throw errors.invalid('sales_channels_missing', { ids: missing.join(', ') });
  const refs: [string, string, string[]][] = [
    ['product_collections', 'Product collections', idsOf(inputs, (i) => [i.collection_id])],
    ['product_types', 'Product types', idsOf(inputs, (i) => [i.type_id])],
    ['shipping_profiles', 'Shipping profiles', idsOf(inputs, (i) => [i.shipping_profile_id])],
    ['categories', 'Product categories', idsOf(inputs, (i) => (i.categories ?? []).map((c) => c.id))],
    ['product_tags', 'Product tags', idsOf(inputs, (i) => (i.tags ?? []).map((t) => t.id))],
  ];
  for (const [table, label, ids] of refs) if (ids.length) await assertLiveRefs(tctx, table, label, ids);
}

const unique = (ids: string[]) => [...new Set(ids)];

type Planned = {
  id: string;
  handle: string;
  input: CreateProductInput;
  options: { title: string; values: string[] }[];
};

async function insertAll(tctx: TxCtx, planned: Planned[], now: Date): Promise<void> {
  const { tx } = tctx;
  await insertChunked(planned, (chunk) =>
    tx.insert(products).values(chunk.map(({ id, handle, input }) => newProductRow(id, handle, input, now))),
  );
  const options = planned.flatMap(({ id, options }) =>
    options.map((o, rank) => ({ id: newId('opt'), product_id: id, title: o.title, values: o.values, rank })),
  );
  await insertChunked(options, (chunk) => tx.insert(productOptions).values(chunk));
  const variants: Parameters<typeof insertVariants>[1] = [];
  const prices: PriceInsert[] = [];
  for (const p of planned) {
    const made = newVariantRows(
      p.id,
      (p.input.variants ?? []).map((item, index) => ({ item, index })),
      now,
    );
    variants.push(...made.rows);
    prices.push(...made.prices);
  }
  await insertVariantsWithStock(tx, variants, now);
  await insertChunked(prices, (chunk) => insertPrices(tx, chunk));
  const links = <T>(make: (p: Planned) => T[]) => planned.flatMap(make);
  const channelLinks = links((p) =>
    unique((p.input.sales_channels ?? []).map((c) => c.id)).map((sales_channel_id) => ({
      product_id: p.id,
      sales_channel_id,
    })),
  );
  await insertChunked(channelLinks, (chunk) => tx.insert(productSalesChannels).values(chunk));
  const categoryLinks = links((p) =>
    unique((p.input.categories ?? []).map((c) => c.id)).map((category_id) => ({ product_id: p.id, category_id })),
  );
  await insertChunked(categoryLinks, (chunk) => tx.insert(productCategories).values(chunk));
  const tagLinks = links((p) =>
    unique((p.input.tags ?? []).map((t) => t.id)).map((tag_id) => ({ product_id: p.id, tag_id })),
  );
  await insertChunked(tagLinks, (chunk) => tx.insert(productTagLinks).values(chunk));
  const images = links((p) =>
    (p.input.images ?? []).map((img, rank) => ({
      id: newId('img'),
      product_id: p.id,
      url: img.url,
      rank,
      metadata: img.metadata ?? null,
      created_at: now,
      updated_at: now,
    })),
  );
  await insertChunked(images, (chunk) => tx.insert(productImages).values(chunk));
}

/**
 * Up to this many stock-managed new variants, the variant insert trigger gives each its stock,
 * inside the insert itself: the set-based path below sends eight statements of its own, which pay
 * off only past a few variants (the single route creates one product, usually with a handful).
 */
const TRIGGER_STOCK_UP_TO = 8;

/**
 * New variants inserted in chunks, and their stock (item, level, link per managed variant): for
 * a few, by the insert trigger; for more, made as the trigger would for the set at once
 * (inventory/new-variant-stock.ts). Bulk creates and updates alike.
 */
export async function insertVariantsWithStock(
  tx: Executor,
  variants: Parameters<typeof insertVariants>[1],
  now: Date,
): Promise<void> {
  const insert = () => insertChunked(variants, (chunk) => insertVariants(tx, chunk));
  if (variants.filter((v) => v.manage_inventory ?? true).length <= TRIGGER_STOCK_UP_TO) return insert();
  await insertVariantsWithoutStock(tx, insert);
  await giveNewVariantsStock(
    tx,
    variants.map((v) => ({
      id: v.id,
      sku: v.sku ?? null,
      title: v.title,
      manage_inventory: v.manage_inventory ?? true,
      inventory_quantity: v.inventory_quantity ?? 0,
    })),
    now,
  );
}
