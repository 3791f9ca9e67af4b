import { parse } from 'csv-parse/sync';
import { errors } from '../../platform/http/errors.ts';
import { exponentOf } from '../../platform/money/currencies.ts';
import { toMinor } from '../../platform/money/convert.ts';

/**
 * Medusa's product CSV (its import template and `normalize-for-export`): one row per variant, the
 * product's columns repeated on each of its rows. Headers are matched case-insensitively with
 * spaces as underscores ("Product HS Code" = "Product Hs Code" = product_hs_code), as Medusa does.
 * Amounts are in whole currency units ("Variant Price EUR" 10.5 is €10.50), as in Medusa's files.
 */

/** A problem with one cell: the report a user reads to fix the file. */
export interface RowIssue {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  column: string;
  reason: string;
}

const PRODUCT_STATUSES = new Set(['draft', 'proposed', 'published', 'rejected']);

/** The product's own fields in the order an export writes them ("Product Id" … "Product External Id"). */
export const PRODUCT_FIELDS = [
  'id',
  'handle',
  'title',
  'subtitle',
  'description',
  'status',
  'thumbnail',
  'weight',
  'length',
  'width',
  'height',
  'hs_code',
  'origin_country',
  'mid_code',
  'material',
  'collection_id',
  'type_id',
  'discountable',
  'is_giftcard',
  'external_id',
] as const;

/** Those of them that name the product or what it belongs to: an import matches them against this shop's rows. */
export const PRODUCT_REFERENCES: ReadonlySet<string> = new Set(['id', 'handle', 'collection_id', 'type_id']);

type Kind = 'text' | 'number' | 'int' | 'bool';
const PRODUCT_COLUMNS: Record<string, Kind> = {
  id: 'text',
  handle: 'text',
  title: 'text',
  subtitle: 'text',
  description: 'text',
  status: 'text',
  thumbnail: 'text',
  weight: 'number',
  length: 'number',
  width: 'number',
  height: 'number',
  hs_code: 'text',
  origin_country: 'text',
  mid_code: 'text',
  material: 'text',
  collection_id: 'text',
  collection_handle: 'text',
  collection_title: 'text',
  type_id: 'text',
  type: 'text',
  discountable: 'bool',
  is_giftcard: 'bool',
  external_id: 'text',
  tags: 'text',
};
const VARIANT_COLUMNS: Record<string, Kind> = {
  id: 'text',
  title: 'text',
  sku: 'text',
  barcode: 'text',
  ean: 'text',
  upc: 'text',
  allow_backorder: 'bool',
  manage_inventory: 'bool',
  inventory_quantity: 'int',
  hs_code: 'text',
  origin_country: 'text',
  mid_code: 'text',
  material: 'text',
  weight: 'number',
  length: 'number',
  width: 'number',
  height: 'number',
  variant_rank: 'int',
  thumbnail: 'text',
};
/** Numbered list columns ("Product Tag 2") and where their values go. */
const LIST_COLUMNS: [RegExp, 'images' | 'tags' | 'salesChannels' | 'categories'][] = [
  [/^product_image_\d+$/, 'images'],
  [/^product_tag_\d+$/, 'tags'],
  [/^product_sales_channel_\d+(_id|_name)?$/, 'salesChannels'],
  [/^product_category_\d+(_id|_handle)?$/, 'categories'],
];
/** Columns Medusa's export writes that an import does not take (timestamps, ids of the row's parent). */
const IGNORED =
  /^(variant_option_\d+_id|(product|variant)_(created_at|updated_at|deleted_at|metadata|product_id|options|variants|images|tags|sales_channels|categories|collection|type|profile_.*|price_set))$/;

export interface CsvVariant {
  row: number;
  fields: Record<string, string | number | boolean>;
  /** Option title → value, in column order. */
  options: [string, string][];
  /** currency → minor units. */
  prices: Record<string, number>;
}

export interface CsvProductRow {
  row: number;
  /** The product's own columns (Product …), as typed values. */
  product: Record<string, string | number | boolean>;
  images: string[];
  tags: string[];
  salesChannels: string[];
  categories: string[];
  /** Null when the row carries no variant column (a product without variants). */
  variant: CsvVariant | null;
}

export interface ParsedCsv {
  rows: CsvProductRow[];
  issues: RowIssue[];
  ignoredColumns: string[];
  /** Rows in the file (data rows, header excluded). */
  total: number;
}

/** "Product HS Code" → product_hs_code; Medusa's older template names map onto the same keys. */
export function columnKey(header: string): string {
  let key = header.trim().toLowerCase().replace(/\s+/g, '_');
  key = key
    .replace(/^price_/, 'variant_price_')
    .replace(/^option_(\d+)_/, 'variant_option_$1_')
    .replace(/^image_(\d+)_url$/, 'product_image_$1')
    .replace(/^product_image_(\d+)_url$/, 'product_image_$1')
    .replace(/^variant_inventory_quantity$/, 'variant_inventory_quantity');
  return key;
}

function detectDelimiter(text: string): string {
  const header = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  let best = ',';
  let bestCount = 0;
  for (const d of [',', ';', '|', '\t']) {
    const n = header.split(d).length - 1;
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}

/** Reads the whole file into records; a file that is not CSV at all is a 400. */
export function readCsv(text: string): { headers: string[]; records: string[][] } {
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text.replace(/^\uFEFF/, '')),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    }) as string[][];
  } catch (err) {
    throw errors.invalid('import_unreadable', { detail: (err as Error).message });
  }
  if (!records.length) throw errors.invalid('import_unreadable', { detail: 'the file is empty' });
  const [headers, ...rest] = records;
  if (!rest.length) throw errors.invalid('import_no_rows');
  return { headers, records: rest };
}

function typed(kind: Kind, raw: string): string | number | boolean | { error: string } {
  switch (kind) {
    case 'text':
      return raw;
    case 'bool': {
      const v = raw.toLowerCase();
      if (v === 'true' || v === '1' || v === 'yes') return true;
      if (v === 'false' || v === '0' || v === 'no') return false;
      return { error: `"${raw}" is not TRUE or FALSE` };
    }
    case 'number': {
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0) return { error: `"${raw}" is not a number of 0 or more` };
      return n;
    }
    case 'int': {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 0 || n > 2_147_483_647)
        return { error: `"${raw}" is not a whole number of 0 or more` };
      return n;
    }
  }
}

/** What a column holds, worked out once from its header (not again for each of 50,000 rows). */
type ColumnRole =
  | { kind: 'list'; list: 'images' | 'tags' | 'salesChannels' | 'categories' }
  | { kind: 'option'; n: number; part: 'name' | 'value' }
  | { kind: 'price'; currency: string; bracket: boolean }
  | { kind: 'bad-price' }
  | { kind: 'product'; field: string; type: Kind }
  | { kind: 'variant'; field: string; type: Kind }
  | { kind: 'skip' };

function roleOf(key: string): ColumnRole | 'unknown' {
  const list = LIST_COLUMNS.find(([re]) => re.test(key));
  if (list) return { kind: 'list', list: list[1] };
  const option = key.match(/^variant_option_(\d+)_(name|value)$/);
  if (option) return { kind: 'option', n: Number(option[1]), part: option[2] as 'name' | 'value' };
  const price = key.match(/^variant_price_(.+)$/);
  if (price) {
    // "Variant Price EUR", or Medusa's region price "Variant Price Europe [EUR]": its currency.
    const bracket = price[1].match(/\[([a-z]{3})\]$/);
    const currency = bracket ? bracket[1] : price[1];
    if (!/^[a-z]{3}$/.test(currency)) return { kind: 'bad-price' };
    return { kind: 'price', currency, bracket: !!bracket };
  }
  const productField = key.startsWith('product_') ? key.slice('product_'.length) : undefined;
  if (productField && PRODUCT_COLUMNS[productField])
    return { kind: 'product', field: productField, type: PRODUCT_COLUMNS[productField] };
  const variantField = key.startsWith('variant_') ? key.slice('variant_'.length) : undefined;
  if (variantField && VARIANT_COLUMNS[variantField])
    return { kind: 'variant', field: variantField, type: VARIANT_COLUMNS[variantField] };
  return IGNORED.test(key) ? { kind: 'skip' } : 'unknown';
}

/** Parses and checks every cell; rows keep going after an issue so the report lists them all. */
export function parseProductCsv(text: string): ParsedCsv {
  const { headers, records } = readCsv(text);
  const roles = headers.map((h) => roleOf(columnKey(h)));
  const issues: RowIssue[] = [];
  const ignored = new Set<string>();
  const rows: CsvProductRow[] = [];
  records.forEach((cells, i) => {
    const rowNo = i + 2;
    const issue = (col: number, reason: string) => issues.push({ row: rowNo, column: headers[col], reason });
    const out: CsvProductRow = {
      row: rowNo,
      product: {},
      images: [],
      tags: [],
      salesChannels: [],
      categories: [],
      variant: null,
    };
    const variant: CsvVariant = { row: rowNo, fields: {}, options: [], prices: {} };
    const optionParts = new Map<number, { name?: string; value?: string; col: number }>();
    let hasVariant = false;
    const readCell = (role: ColumnRole | 'unknown', col: number): void => {
      let raw = cells[col] ?? '';
      if (raw === '') return;
      // An apostrophe before a formula character is our export's (and spreadsheets') text mark.
      if (raw.endsWith('\r')) raw = raw.slice(0, -1);
      if (raw.startsWith("'")) raw = raw.replace(/^'(?=[=+\-@\t\r])/, '');
      if (raw === '') return;
      if (role === 'unknown') return void ignored.add(headers[col]);
      switch (role.kind) {
        case 'skip':
          return;
        case 'list':
          return void out[role.list].push(raw);
        case 'option': {
          hasVariant = true;
          optionParts.set(role.n, { ...(optionParts.get(role.n) ?? { col }), [role.part]: raw });
          return;
        }
        case 'bad-price':
          hasVariant = true;
          return void issue(col, `"${headers[col]}" names no currency`);
        case 'price': {
          hasVariant = true;
          const amount = Number(raw);
          if (!Number.isFinite(amount) || amount < 0) return void issue(col, `"${raw}" is not an amount of 0 or more`);
          try {
            const minor = toMinor(amount, exponentOf(role.currency), role.currency, headers[col]);
            if (!role.bracket || variant.prices[role.currency] === undefined) variant.prices[role.currency] = minor;
          } catch (err) {
            issue(col, (err as Error).message);
          }
          return;
        }
        case 'product': {
          const { field } = role;
          const v = typed(role.type, raw);
          if (typeof v === 'object') return void issue(col, v.error);
          if (field === 'status' && !PRODUCT_STATUSES.has(String(v).toLowerCase()))
            return void issue(col, `"${raw}" is not one of draft, proposed, published, rejected`);
          if (field === 'tags')
            out.tags.push(
              ...String(v)
                .split(',')
                .map((t) => t.trim())
                .filter(Boolean),
            );
          else out.product[field] = field === 'status' ? String(v).toLowerCase() : v;
          return;
        }
        case 'variant': {
          hasVariant = true;
          const v = typed(role.type, raw);
          if (typeof v === 'object') return void issue(col, v.error);
          variant.fields[role.field] = v;
          return;
        }
      }
    };
    for (const [col, role] of roles.entries()) readCell(role, col);
    for (const [, part] of [...optionParts.entries()].sort((a, b) => a[0] - b[0])) {
      if (!part.name) issue(part.col, 'an option value without its option name');
      else if (!part.value) issue(part.col, `option "${part.name}" has no value`);
      else variant.options.push([part.name, part.value]);
    }
    if (!out.product.handle && !out.product.title && !out.product.id)
      issues.push({
        row: rowNo,
        column: 'Product Handle',
        reason: 'a row needs a Product Handle, Product Title or Product Id',
      });
    if (hasVariant) out.variant = variant;
    rows.push(out);
  });
  return { rows, issues, ignoredColumns: [...ignored], total: records.length };
}
