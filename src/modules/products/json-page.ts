import { type SQL, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';

/** What a list of one table answers: `json` and `where` are written over the row aliased `alias`. */
export interface JsonList {
  /** The answer's key for the rows, e.g. `variants`. */
  key: string;
  table: 'product_options' | 'product_variants';
  alias: string;
  where: SQL | undefined;
  order: SQL;
  json: SQL;
}

/**
 * `{ <key>: […], count, limit, offset }` as JSON text, built by PostgreSQL in one statement: the
 * page's ids in `order`, then each row's JSON in that order, and the count of every match.
 */
export async function jsonListBody(db: Executor, list: JsonList, page: Page): Promise<string> {
  const { where, order, json } = list;
  const from = sql.raw(`${list.table} ${list.alias}`);
  const id = sql.raw(`${list.alias}.id`);
  const [row] = await rows<{ body: string }>(
    db,
    sql`with page as (select ${id}, row_number() over (order by ${order}) as n from ${from}
          where ${where} order by ${order} limit ${page.limit} offset ${page.offset})
      select json_build_object(
        ${sql.raw(`'${list.key}'`)}, coalesce((select json_agg(${json} order by page.n) from page join ${from} on ${id} = page.id), '[]'::json),
        'count', (select count(*) from ${from} where ${where}),
        'limit', ${page.limit}::int, 'offset', ${page.offset}::int
      )::text as body`,
  );
  return row.body;
}
