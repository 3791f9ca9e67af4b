import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';
import { variantJsonIn } from './product-json.ts';
import { jsonListBody } from './json-page.ts';
import { searchPattern } from './queries.ts';

/**
 * Reads of the admin variant routes (`/admin/products/{id}/variants`, `/admin/product-variants`):
 * JSON built by PostgreSQL for the row aliased `v`, as inside the product JSON.
 */

export interface VariantFilters {
  product_id?: string[];
  id?: string[];
  sku?: string[];
  ean?: string[];
  upc?: string[];
  barcode?: string[];
  q?: string;
  manage_inventory?: boolean;
  allow_backorder?: boolean;
  order?: string;
}

const anyOf = (values: string[]) => sql`any(${sql.param(values)}::text[])`;

function conditions(f: VariantFilters): SQL {
  const conds: SQL[] = [sql`v.deleted_at is null`];
  if (f.product_id) conds.push(sql`v.product_id = ${anyOf(f.product_id)}`);
  if (f.id) conds.push(sql`v.id = ${anyOf(f.id)}`);
  for (const key of ['sku', 'ean', 'upc', 'barcode'] as const) {
    const values = f[key];
    if (values) conds.push(sql`${sql.raw(`v.${key}`)} = ${anyOf(values)}`);
  }
  if (f.manage_inventory !== undefined) conds.push(sql`v.manage_inventory = ${f.manage_inventory}`);
  if (f.allow_backorder !== undefined) conds.push(sql`v.allow_backorder = ${f.allow_backorder}`);
  if (f.q) {
    const like = searchPattern(f.q);
    conds.push(
      sql`(lower(v.title) like ${like} or lower(coalesce(v.sku, '')) like ${like} or lower(coalesce(v.barcode, '')) like ${like}
        or lower(coalesce(v.ean, '')) like ${like} or lower(coalesce(v.upc, '')) like ${like})`,
    );
  }
  return sql.join(conds, sql` and `);
}

// Medusa's `order` (`title`, `-created_at`): the columns a list may be sorted by, else the default.
const ORDERABLE = new Set(['title', 'sku', 'variant_rank', 'created_at', 'updated_at', 'id']);

export function orderBy(order: string | undefined, fallback: string): SQL {
  const desc = order?.startsWith('-');
  const column = order?.replace(/^-/, '');
  if (!column || !ORDERABLE.has(column)) return sql.raw(fallback);
  return sql.raw(`v.${column} ${desc ? 'desc' : 'asc'}, v.id`);
}

/** `{ variants, count, limit, offset }` as JSON text, one statement; `withProduct` adds each one's product. */
export async function listVariantsJson(
  db: Executor,
  f: VariantFilters,
  page: Page,
  opts: { units?: AmountUnits; withProduct: boolean; fallbackOrder: string },
): Promise<string> {
  const json = opts.withProduct ? variantJsonIn(opts.units).withProduct : variantJsonIn(opts.units).plain;
  const order = orderBy(f.order, opts.fallbackOrder);
  const where = conditions(f);
  return jsonListBody(db, { key: 'variants', table: 'product_variants', alias: 'v', where, order, json }, page);
}

/** `{ variant }` as JSON text, or undefined when the product has no live variant with this id. */
export async function findVariantJson(
  db: Executor,
  productId: string,
  variantId: string,
  units?: AmountUnits,
): Promise<string | undefined> {
  const [row] = await rows<{ body: string }>(
    db,
    sql`select json_build_object('variant', ${variantJsonIn(units).plain})::text as body
        from product_variants v where v.id = ${variantId} and v.product_id = ${productId} and v.deleted_at is null`,
  );
  return row?.body;
}

/** Variants as objects in minor units (write answers; the money hook converts them), in the order of `ids`. */
export async function findAdminVariants<T extends { id: string }>(db: Executor, ids: string[]): Promise<T[]> {
  if (!ids.length) return [];
  const found = await rows<{ variant: T }>(
    db,
    sql`select ${variantJsonIn('minor').plain} as variant from product_variants v where v.id = ${anyOf(ids)}`,
  );
  const byId = new Map(found.map((r) => [r.variant.id, r.variant]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
