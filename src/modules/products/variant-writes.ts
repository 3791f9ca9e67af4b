import type { Tx } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { assertPrices, assertUniqueSkus, assertVariantOptions, skuTaken } from './rules.ts';
import type { VariantInput } from './schema.ts';
import { PHYSICAL } from './product-row.ts';
import {
  clearVariantSkus,
  findTakenSkus,
  insertPrices,
  insertVariants,
  listLiveVariants,
  replaceVariantPrices,
  softDeleteVariants,
  updateVariantRow,
  type PriceInsert,
  type VariantRow,
} from './write-queries.ts';

const VARIANT_ATTRIBUTES = ['barcode', 'ean', 'upc', 'thumbnail', ...PHYSICAL] as const;

type DeclaredOptions = { title: string; values: string[] }[];
type NewVariant = VariantInput & { title: string };

/** A variant's prices as rows (new ids; an upsert keeps the old id of a currency that stays). */
export const priceRows = (variantId: string, prices: NewVariant['prices'], now: Date): PriceInsert[] =>
  (prices ?? []).map((p) => ({
    id: newId('price'),
    variant_id: variantId,
    currency_code: p.currency_code,
    amount: p.amount,
    min_quantity: p.min_quantity ?? null,
    max_quantity: p.max_quantity ?? null,
    created_at: now,
    updated_at: now,
  }));

/** Inserts new variants with their prices; a variant without `variant_rank` takes its list position. */
export async function insertNewVariants(
  tx: Tx,
  productId: string,
  items: { item: NewVariant; index: number }[],
  now: Date,
) {
  const { rows, prices } = newVariantRows(productId, items, now);
  await insertVariants(tx, rows);
  await insertPrices(tx, prices);
}

/** The rows of new variants and of their prices (written by insertNewVariants, or many products' at once). */
export function newVariantRows(productId: string, items: { item: NewVariant; index: number }[], now: Date) {
  const prices: PriceInsert[] = [];
  const rows = items.map(({ item, index }) => {
    const id = newId('variant');
    prices.push(...priceRows(id, item.prices, now));
    return {
      id,
      product_id: productId,
      title: item.title,
      sku: item.sku ?? null,
      manage_inventory: item.manage_inventory ?? true,
      allow_backorder: item.allow_backorder ?? false,
      inventory_quantity: item.inventory_quantity ?? 0,
      options: item.options ?? null,
      variant_rank: item.variant_rank ?? index,
      ...Object.fromEntries(VARIANT_ATTRIBUTES.map((f) => [f, item[f] ?? null])),
      metadata: item.metadata ?? null,
      created_at: now,
      updated_at: now,
    };
  });
  return { rows, prices };
}

export async function assertSkusFree(tx: Tx, skus: (string | null | undefined)[], productId?: string) {
  assertUniqueSkus(skus);
  const [taken] = await findTakenSkus(
    tx,
    skus.filter((s): s is string => s != null),
    productId,
  );
  if (taken) throw skuTaken(taken);
}

/**
 * Update: `input` is the full desired list. Items with an id change that variant, items without
 * one are created, live variants left out are soft-deleted. Without `input`, the existing
 * variants are only re-checked against the (possibly changed) options.
 */
export async function syncVariants(
  tx: Tx,
  productId: string,
  input: VariantInput[] | undefined,
  options: DeclaredOptions,
  now: Date,
) {
  const existing = await listLiveVariants(tx, productId);
  if (!input) {
    for (const v of existing) assertVariantOptions(v.title, v.options, options);
    return;
  }
  const byId = new Map(existing.map((v) => [v.id, v]));
  const updates: { item: VariantInput; current: VariantRow }[] = [];
  const creates: { item: NewVariant; index: number }[] = [];
  input.forEach((item, index) => {
    if (item.id) {
      const current = byId.get(item.id);
      if (!current) throw errors.invalid('variant_not_in_product', { id: item.id, product: productId });
      if (updates.some((u) => u.current.id === item.id)) throw errors.invalid('variant_listed_twice', { id: item.id });
      updates.push({ item, current });
    } else {
      if (item.title === undefined) throw errors.invalid('variant_title_required', { index });
      creates.push({ item: item as NewVariant, index });
    }
  });
  for (const { item, current } of updates) {
    const title = item.title ?? current.title;
    assertPrices(title, item.prices ?? []);
    assertVariantOptions(title, item.options ?? current.options, options);
  }
  for (const { item } of creates) {
    assertPrices(item.title, item.prices ?? []);
    assertVariantOptions(item.title, item.options, options);
  }
  const finalSku = (u: (typeof updates)[number]) => (u.item.sku !== undefined ? u.item.sku : u.current.sku);
  await assertSkusFree(tx, [...updates.map(finalSku), ...creates.map((c) => c.item.sku)], productId);

  const kept = new Set(updates.map((u) => u.current.id));
  await softDeleteVariants(
    tx,
    existing.filter((v) => !kept.has(v.id)).map((v) => v.id),
    now,
  );
  await clearVariantSkus(
    tx,
    updates.filter((u) => finalSku(u) !== u.current.sku).map((u) => u.current.id),
  );
  for (const { item, current } of updates) {
    const { id: _id, prices, ...fields } = item;
    const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    await updateVariantRow(tx, current.id, { ...patch, sku: finalSku({ item, current }), updated_at: now });
    if (prices) await replaceVariantPrices(tx, current.id, priceRows(current.id, prices, now));
  }
  await insertNewVariants(tx, productId, creates, now);
}
