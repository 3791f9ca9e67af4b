import { stringify } from 'csv-stringify/sync';
import type { Ctx } from '../../platform/context.ts';
import type { JobHandler } from '../../platform/jobs/runner.ts';
import { toMajorText } from '../../platform/money/convert.ts';
import { exponentOf } from '../../platform/money/currencies.ts';
import type { AdminListFilters } from '../products/schema.ts';
import type { ProductJson } from '../products/service.ts';
import { listAdminProducts } from '../products/service.ts';
import { PRODUCT_FIELDS } from './product-csv.ts';

export const PRODUCT_EXPORT = 'product_export';
const PAGE = 200;

type Cell = string | number | boolean | null | undefined;

/** Medusa's column names: "Product " / "Variant " and the field in title case ("Product Hs Code"). */
const title = (prefix: string, field: string) =>
  `${prefix} ${field
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')}`;

const VARIANT_FIELDS = [
  'id',
  'title',
  'sku',
  'barcode',
  'ean',
  'upc',
  'allow_backorder',
  'manage_inventory',
  'inventory_quantity',
  'hs_code',
  'origin_country',
  'mid_code',
  'material',
  'weight',
  'length',
  'width',
  'height',
  'variant_rank',
] as const;

const bool = (v: Cell) => (typeof v === 'boolean' ? (v ? 'TRUE' : 'FALSE') : v);

/**
 * One row per variant (a product without variants gets one row), in Medusa's columns. Beside
 * Medusa's ids, collections and types also go by handle and value, and sales channels and
 * categories by name and handle, so the file imports into another shop (where ids differ).
 */
export function productRows(products: ProductJson[]): Record<string, Cell>[] {
  const out: Record<string, Cell>[] = [];
  for (const p of products) {
    const base: Record<string, Cell> = {};
    for (const f of PRODUCT_FIELDS) base[title('Product', f)] = bool(p[f] as Cell);
    base['Product Collection Handle'] = p.collection?.handle;
    base['Product Collection Title'] = p.collection?.title;
    base['Product Type'] = p.type?.value;
    p.images.forEach((img, i) => {
      base[`Product Image ${i + 1}`] = img.url;
    });
    p.tags.forEach((t, i) => {
      base[`Product Tag ${i + 1}`] = t.value;
    });
    p.sales_channels.forEach((c, i) => {
      base[`Product Sales Channel ${i + 1}`] = c.name;
    });
    p.categories.forEach((c, i) => {
      base[`Product Category ${i + 1}`] = (c as { handle?: string }).handle ?? c.id;
    });
    if (!p.variants.length) {
      out.push(base);
      continue;
    }
    for (const v of p.variants) {
      const row: Record<string, Cell> = { ...base };
      for (const f of VARIANT_FIELDS) row[title('Variant', f)] = bool(v[f] as Cell);
      for (const price of [...v.prices].sort((a, b) => a.currency_code.localeCompare(b.currency_code))) {
        if (price.min_quantity != null || price.max_quantity != null) continue;
        row[`Variant Price ${price.currency_code.toUpperCase()}`] = toMajorText(
          price.amount as number,
          exponentOf(price.currency_code),
        );
      }
      const byOption = new Map(p.options.map((o, i) => [o.id, i]));
      for (const o of [...v.options].sort(
        (a, b) => (byOption.get(a.option_id) ?? 0) - (byOption.get(b.option_id) ?? 0),
      )) {
        const n = (byOption.get(o.option_id) ?? 0) + 1;
        row[`Variant Option ${n} Name`] = o.option.title;
        row[`Variant Option ${n} Value`] = o.value;
      }
      out.push(row);
    }
  }
  return out;
}

/** Columns in a stable order: the product's, its numbered lists, the variant's, prices, options. */
function columnsOf(rows: Record<string, Cell>[]): string[] {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  const group = (k: string) => {
    if (k.startsWith('Product Image ')) return 1;
    if (k.startsWith('Product Tag ')) return 2;
    if (k.startsWith('Product Sales Channel ')) return 3;
    if (k.startsWith('Product Category ')) return 4;
    if (k.startsWith('Product ')) return 0;
    if (k.startsWith('Variant Price ')) return 6;
    if (k.startsWith('Variant Option ')) return 7;
    return 5;
  };
  const num = (k: string) => Number(k.match(/(\d+)/)?.[1] ?? 0);
  const fixed = [...seen];
  const order = new Map(fixed.map((k, i) => [k, i]));
  return fixed.sort((a, b) => {
    const ga = group(a);
    const gb = group(b);
    if (ga !== gb) return ga - gb;
    if (ga === 0 || ga === 5) return order.get(a)! - order.get(b)!;
    if (ga === 6) return a.localeCompare(b);
    return num(a) - num(b) || a.localeCompare(b);
  });
}

/**
 * A text cell a spreadsheet would run as a formula (`=HYPERLINK(…)` in a customer's name) gets a
 * leading apostrophe, the spreadsheets' own "this is text" mark; the import takes it off again.
 */
export const defuse = (v: Cell): Cell => (typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

export function toCsv(rows: Record<string, Cell>[], columns = columnsOf(rows)): string {
  return stringify(
    rows.map((r) => columns.map((c) => defuse(r[c] ?? ''))),
    { header: true, columns },
  );
}

/** Every product the list's filters match, page by page (the admin list's own query). */
async function* productPages(
  ctx: Ctx,
  filters: AdminListFilters,
): AsyncGenerator<{ products: ProductJson[]; count: number }> {
  for (let offset = 0; ; offset += PAGE) {
    const page = JSON.parse(await listAdminProducts(ctx, { ...filters, limit: PAGE, offset })) as {
      products: ProductJson[];
      count: number;
    };
    yield page;
    if (page.products.length < PAGE) return;
  }
}

export const productExportJob: JobHandler = {
  type: PRODUCT_EXPORT,
  async run(job) {
    const ctx: Ctx = { db: job.db, clock: job.clock, log: job.log };
    const filters = (job.job.input.filters ?? {}) as AdminListFilters;
    const rows: Record<string, Cell>[] = [];
    let products = 0;
    for await (const page of productPages(ctx, filters)) {
      if (job.signal.aborted) throw job.signal.reason;
      rows.push(...productRows(page.products));
      products += page.products.length;
      await job.progress(job.db, products, page.count);
    }
    const stamp = job.clock.now().toISOString().replace(/[:.]/g, '-');
    await job.saveFile(job.db, 'result', `products-${stamp}.csv`, 'text/csv', toCsv(rows));
    return { products, rows: rows.length };
  },
};
