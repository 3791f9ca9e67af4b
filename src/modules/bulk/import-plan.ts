import { and, type Column, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { textArray } from '../../platform/db/prepared.ts';
import { categories } from '../categories/tables.ts';
import { productCollections } from '../collections/tables.ts';
import { productTags, productTypes } from '../product-labels/tables.ts';
import { products as productTable, productVariants } from '../products/tables.ts';
import { salesChannels } from '../sales-channels/tables.ts';
import { handleFromTitle } from '../products/rules.ts';
import type { CreateProductInput, UpdateProductInput } from '../products/schema.ts';
import {
  type CsvProductRow,
  type ParsedCsv,
  PRODUCT_FIELDS,
  PRODUCT_REFERENCES,
  type RowIssue,
} from './product-csv.ts';

/**
 * `column = any($1)`: one text[] parameter however long the list (an import names thousands),
 * on the owning module's declared table, so a renamed column fails the typecheck here.
 */
const anyOf = (column: Column, values: string[]) => sql`${column} = any(${textArray(values)})`;

/**
 * From parsed rows to the products an import writes: rows grouped by product (its id when that
 * product exists here, else its handle), each group checked as a whole against the database.
 * A group with any issue is left out entirely, so no product is ever written from part of its rows.
 */

export interface PlannedProduct {
  rows: number[];
  handle: string;
  create?: CreateProductInput;
  update?: UpdateProductInput & { id: string };
}

export interface ImportPlan {
  products: PlannedProduct[];
  issues: RowIssue[];
  warnings: RowIssue[];
  toCreate: number;
  toUpdate: number;
  /** Tags, types and collections the file names that do not exist yet: made by the import. */
  missing: { tags: string[]; types: string[]; collections: { handle: string; title: string }[] };
}

interface Refs {
  tags: Map<string, string>;
  types: Map<string, string>;
  typeIds: Set<string>;
  collectionIds: Set<string>;
  collectionsByHandle: Map<string, string>;
  channels: Map<string, string>;
  categories: Map<string, string>;
}

interface Existing {
  byId: Map<string, { id: string; handle: string }>;
  byHandle: Map<string, string>;
  variants: Map<string, { id: string; sku: string | null; title: string }[]>;
  skuOwner: Map<string, string>;
}

const uniq = <T>(xs: T[]) => [...new Set(xs)];

async function loadRefs(db: Executor, parsed: ParsedCsv): Promise<Refs> {
  const all = parsed.rows;
  const tagValues = uniq(all.flatMap((r) => r.tags));
  const typeValues = uniq(all.map((r) => r.product.type).filter(Boolean) as string[]);
  const typeIds = uniq(all.map((r) => r.product.type_id).filter(Boolean) as string[]);
  const collIds = uniq(all.map((r) => r.product.collection_id).filter(Boolean) as string[]);
  const collHandles = uniq(all.map((r) => r.product.collection_handle).filter(Boolean) as string[]);
  const channelRefs = uniq(all.flatMap((r) => r.salesChannels));
  const categoryRefs = uniq(all.flatMap((r) => r.categories));
  const [tags, types, typeIdRows, colls, channels, cats] = await Promise.all([
    db
      .select({ id: productTags.id, value: productTags.value })
      .from(productTags)
      .where(and(isNull(productTags.deleted_at), anyOf(productTags.value, tagValues))),
    db
      .select({ id: productTypes.id, value: productTypes.value })
      .from(productTypes)
      .where(and(isNull(productTypes.deleted_at), anyOf(productTypes.value, typeValues))),
    db
      .select({ id: productTypes.id })
      .from(productTypes)
      .where(and(isNull(productTypes.deleted_at), anyOf(productTypes.id, typeIds))),
    db
      .select({ id: productCollections.id, handle: productCollections.handle })
      .from(productCollections)
      .where(
        and(
          isNull(productCollections.deleted_at),
          or(anyOf(productCollections.id, collIds), anyOf(productCollections.handle, collHandles)),
        ),
      ),
    db
      .select({ id: salesChannels.id, name: salesChannels.name })
      .from(salesChannels)
      .where(
        and(
          isNull(salesChannels.deleted_at),
          or(anyOf(salesChannels.id, channelRefs), anyOf(salesChannels.name, channelRefs)),
        ),
      ),
    db
      .select({ id: categories.id, handle: categories.handle })
      .from(categories)
      .where(
        and(
          isNull(categories.deleted_at),
          or(anyOf(categories.id, categoryRefs), anyOf(categories.handle, categoryRefs)),
        ),
      ),
  ]);
  const channelMap = new Map<string, string>();
  for (const c of channels) channelMap.set(c.name, c.id);
  for (const c of channels) channelMap.set(c.id, c.id);
  const categoryMap = new Map<string, string>();
  for (const c of cats) categoryMap.set(c.handle, c.id);
  for (const c of cats) categoryMap.set(c.id, c.id);
  return {
    tags: new Map(tags.map((t) => [t.value, t.id])),
    types: new Map(types.map((t) => [t.value, t.id])),
    typeIds: new Set(typeIdRows.map((t) => t.id)),
    collectionIds: new Set(colls.map((c) => c.id)),
    collectionsByHandle: new Map(colls.map((c) => [c.handle, c.id])),
    channels: channelMap,
    categories: categoryMap,
  };
}

async function loadExisting(db: Executor, parsed: ParsedCsv): Promise<Existing> {
  const ids = uniq(parsed.rows.map((r) => r.product.id).filter(Boolean) as string[]);
  const handles = uniq(parsed.rows.map((r) => groupHandle(r)).filter(Boolean) as string[]);
  const skus = uniq(parsed.rows.map((r) => r.variant?.fields.sku).filter(Boolean) as string[]);
  const found = await db
    .select({ id: productTable.id, handle: productTable.handle })
    .from(productTable)
    .where(and(isNull(productTable.deleted_at), or(anyOf(productTable.id, ids), anyOf(productTable.handle, handles))));
  const productIds = found.map((p) => p.id);
  const v = productVariants;
  const [variants, owners] = await Promise.all([
    db
      .select({ id: v.id, product_id: v.product_id, sku: v.sku, title: v.title })
      .from(v)
      .where(and(isNull(v.deleted_at), anyOf(v.product_id, productIds)))
      .orderBy(v.variant_rank, v.id),
    db
      .select({ sku: v.sku, product_id: v.product_id })
      .from(v)
      .where(and(isNull(v.deleted_at), anyOf(v.sku, skus))),
  ]);
  const byProduct = new Map<string, { id: string; sku: string | null; title: string }[]>();
  for (const row of variants) byProduct.set(row.product_id, [...(byProduct.get(row.product_id) ?? []), row]);
  return {
    byId: new Map(found.map((p) => [p.id, p])),
    byHandle: new Map(found.map((p) => [p.handle, p.id])),
    variants: byProduct,
    // The sku filter leaves no null sku.
    skuOwner: new Map(owners.map((o) => [o.sku ?? '', o.product_id])),
  };
}

function groupHandle(r: CsvProductRow): string | undefined {
  if (r.product.handle) return String(r.product.handle);
  if (r.product.title) return handleFromTitle(String(r.product.title));
  return undefined;
}

/** The product's own fields a row sets as written; the rest name it or what it belongs to, resolved below. */
const PLAIN_FIELDS = PRODUCT_FIELDS.filter((f) => !PRODUCT_REFERENCES.has(f));

/** Reads the database (a snapshot is enough: the job plans again when it runs) and plans every product. */
export async function planImport(db: Executor, parsed: ParsedCsv): Promise<ImportPlan> {
  const [refs, existing] = await Promise.all([loadRefs(db, parsed), loadExisting(db, parsed)]);
  const issues = [...parsed.issues];
  const warnings: RowIssue[] = [];
  const badRows = new Set(issues.map((i) => i.row));
  const missing = { tags: new Set<string>(), types: new Set<string>(), collections: new Map<string, string>() };

  // Group: an existing product's id, else the handle (given, or made from the title as the API does).
  const groups = new Map<string, CsvProductRow[]>();
  for (const r of parsed.rows) {
    const id = r.product.id ? String(r.product.id) : undefined;
    const key = id && existing.byId.has(id) ? `id:${id}` : `handle:${groupHandle(r) ?? `row-${r.row}`}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }

  const seenSkus = new Map<string, number>();
  const products: PlannedProduct[] = [];
  for (const [key, group] of groups) {
    const first = group[0];
    const p = first.product;
    const handle = groupHandle(first) ?? '';
    const existingId = key.startsWith('id:') ? key.slice(3) : existing.byHandle.get(handle);
    if (p.id && !existing.byId.has(String(p.id)))
      warnings.push({
        row: first.row,
        column: 'Product Id',
        reason: `no product ${p.id} here: matched by handle instead`,
      });
    const groupIssues: RowIssue[] = [];
    if (!existingId && !p.title)
      groupIssues.push({ row: first.row, column: 'Product Title', reason: 'a new product needs a title' });

    const input: Record<string, unknown> = {};
    for (const f of PLAIN_FIELDS) if (p[f] !== undefined) input[f] = p[f];
    if (p.handle) input.handle = String(p.handle);
    else if (!existingId) input.handle = handle;
    // Collection: an id that exists here, else by handle (made when missing, with the title given).
    if (p.collection_id && refs.collectionIds.has(String(p.collection_id))) input.collection_id = p.collection_id;
    else if (p.collection_handle) {
      const h = String(p.collection_handle);
      const id = refs.collectionsByHandle.get(h);
      if (id) input.collection_id = id;
      else missing.collections.set(h, String(p.collection_title ?? h));
    } else if (p.collection_id)
      warnings.push({
        row: first.row,
        column: 'Product Collection Id',
        reason: `no collection ${p.collection_id} here`,
      });
    if (p.type_id && refs.typeIds.has(String(p.type_id))) input.type_id = p.type_id;
    else if (p.type) {
      const id = refs.types.get(String(p.type));
      if (id) input.type_id = id;
      else missing.types.add(String(p.type));
    } else if (p.type_id)
      warnings.push({ row: first.row, column: 'Product Type Id', reason: `no type ${p.type_id} here` });
    if (first.images.length) input.images = uniq(first.images).map((url) => ({ url }));
    if (first.tags.length) {
      for (const t of first.tags) if (!refs.tags.has(t)) missing.tags.add(t);
      input.tags = uniq(first.tags).map((t) => ({ id: refs.tags.get(t) ?? `missing:${t}` }));
    }
    const channelIds: string[] = [];
    for (const c of first.salesChannels) {
      const id = refs.channels.get(c);
      if (id) channelIds.push(id);
      else warnings.push({ row: first.row, column: 'Product Sales Channel', reason: `no sales channel "${c}" here` });
    }
    if (channelIds.length) input.sales_channels = uniq(channelIds).map((id) => ({ id }));
    const categoryIds: string[] = [];
    for (const c of first.categories) {
      const id = refs.categories.get(c);
      if (id) categoryIds.push(id);
      else warnings.push({ row: first.row, column: 'Product Category', reason: `no category "${c}" here` });
    }
    if (categoryIds.length) input.categories = uniq(categoryIds).map((id) => ({ id }));

    // Variants: one per row that has variant columns; options are gathered from them (Medusa's rule).
    const known = existingId ? (existing.variants.get(existingId) ?? []) : [];
    const options = new Map<string, string[]>();
    const variants: Record<string, unknown>[] = [];
    const combos = new Set<string>();
    for (const r of group) {
      if (!r.variant) continue;
      const v = r.variant;
      const sku = v.fields.sku ? String(v.fields.sku) : undefined;
      if (sku) {
        const owner = existing.skuOwner.get(sku);
        if (seenSkus.has(sku))
          groupIssues.push({
            row: r.row,
            column: 'Variant Sku',
            reason: `SKU ${sku} is also on row ${seenSkus.get(sku)}`,
          });
        else if (owner && owner !== existingId)
          groupIssues.push({
            row: r.row,
            column: 'Variant Sku',
            reason: `SKU ${sku} belongs to another product (${owner})`,
          });
        seenSkus.set(sku, r.row);
      }
      const combo = JSON.stringify(v.options);
      if (v.options.length && combos.has(combo))
        groupIssues.push({
          row: r.row,
          column: 'Variant Option 1 Value',
          reason: 'another row of this product has the same options',
        });
      combos.add(combo);
      for (const [name, value] of v.options) {
        const values = options.get(name) ?? [];
        if (!values.includes(value)) values.push(value);
        options.set(name, values);
      }
      const title = v.fields.title
        ? String(v.fields.title)
        : v.options.map(([, val]) => val).join(' / ') || 'Default variant';
      const variant: Record<string, unknown> = { ...v.fields, title };
      if (!variant.sku) delete variant.sku;
      variant.options = Object.fromEntries(v.options);
      variant.prices = Object.entries(v.prices).map(([currency_code, amount]) => ({ currency_code, amount }));
      delete variant.id;
      if (existingId) {
        const match =
          (v.fields.id && known.find((k) => k.id === v.fields.id)) ||
          (sku && known.find((k) => k.sku === sku)) ||
          known.find((k) => k.title === title);
        if (match) variant.id = match.id;
      }
      variants.push(variant);
    }
    if (variants.length) {
      input.options = [...options].map(([title, values]) => ({ title, values }));
      input.variants = variants;
    }

    const rowsOfGroup = group.map((r) => r.row);
    const broken = rowsOfGroup.filter((n) => badRows.has(n));
    if (broken.length || groupIssues.length) {
      issues.push(...groupIssues);
      const flagged = new Set([...broken, ...groupIssues.map((i) => i.row)]);
      for (const n of rowsOfGroup)
        if (!flagged.has(n))
          issues.push({
            row: n,
            column: 'Product Handle',
            reason: `not imported: another row of product ${handle} has errors`,
          });
      continue;
    }
    products.push(
      existingId
        ? { rows: rowsOfGroup, handle, update: { ...(input as UpdateProductInput), id: existingId } }
        : { rows: rowsOfGroup, handle, create: input as CreateProductInput },
    );
  }
  issues.sort((a, b) => a.row - b.row);
  return {
    products,
    issues,
    warnings,
    toCreate: products.filter((p) => p.create).length,
    toUpdate: products.filter((p) => p.update).length,
    missing: {
      tags: [...missing.tags],
      types: [...missing.types],
      collections: [...missing.collections].map(([handle, title]) => ({ handle, title })),
    },
  };
}
