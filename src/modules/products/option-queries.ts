import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { OPTION_JSON } from './product-json.ts';
import { jsonListBody } from './json-page.ts';
import { searchPattern } from './queries.ts';

/** Reads of the admin option routes: options of live products, JSON built by PostgreSQL (row `o`). */

export interface OptionFilters {
  product_id?: string[];
  id?: string[];
  title?: string[];
  q?: string;
}

export interface OptionJson {
  id: string;
  title: string;
  is_exclusive: boolean;
  metadata: null;
  product_id: string;
  rank: number;
  values: { id: string; value: string; option_id: string; rank: number }[];
}

/** A value's id, derived from its option and its text, exactly as product-json.ts derives it (`valueId`). */
export const optionValueId = (optionId: string, value: string) =>
  `optval_${createHash('md5').update(`${optionId}:${value}`).digest('hex').slice(0, 24)}`;

const anyOf = (values: string[]) => sql`any(${sql.param(values)}::text[])`;

function conditions(f: OptionFilters): SQL {
  const conds: SQL[] = [sql`exists (select 1 from products p where p.id = o.product_id and p.deleted_at is null)`];
  if (f.product_id) conds.push(sql`o.product_id = ${anyOf(f.product_id)}`);
  if (f.id) conds.push(sql`o.id = ${anyOf(f.id)}`);
  if (f.title) conds.push(sql`o.title = ${anyOf(f.title)}`);
  if (f.q) conds.push(sql`lower(o.title) like ${searchPattern(f.q)}`);
  return sql.join(conds, sql` and `);
}

/** `{ product_options, count, limit, offset }` as JSON text: by product, then in the product's order. */
export async function listOptionsJson(db: Executor, f: OptionFilters, page: Page): Promise<string> {
  const order = sql.raw('o.product_id, o.rank, o.id');
  const where = conditions(f);
  return jsonListBody(
    db,
    { key: 'product_options', table: 'product_options', alias: 'o', where, order, json: OPTION_JSON },
    page,
  );
}

/** One option of a live product, or undefined. */
export async function findOptionJson(db: Executor, id: string): Promise<OptionJson | undefined> {
  const [row] = await rows<{ option: OptionJson }>(
    db,
    sql`select ${OPTION_JSON} as option from product_options o where o.id = ${id} and ${conditions({})}`,
  );
  return row?.option;
}
