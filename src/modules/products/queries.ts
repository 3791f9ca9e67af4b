import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { preparedRows } from './prepared.ts';
import { ADMIN_PRODUCT_JSON } from './product-json.ts';
import type { AdminListFilters } from './schema.ts';

/**
 * Read queries: each answers with one statement. Writes are in write-queries.ts.
 * Every query aliases products as `p`; conditions below are built for that alias.
 */

/** Exactly the expression of the trigram index products_search_trgm_idx, or the index is not used. */
export const SEARCH_TEXT = sql.raw(`lower(p.title || ' ' || p.handle || ' ' || coalesce(p.description, ''))`);

/** `q` as a LIKE pattern: a case-insensitive substring; `%`, `_` and `\` in q are literal characters. */
export const searchPattern = (q: string): SQL => sql`'%' || lower(${q.replace(/[\\%_]/g, (c) => `\\${c}`)}) || '%'`;

function searchCondition(q: string): SQL {
  return sql`${SEARCH_TEXT} like ${searchPattern(q)}`;
}

const anyOf = (values: string[]) => sql`any(${sql.param(values)}::text[])`;

const inChannels = (ids: string[]) =>
  sql`exists (select 1 from product_sales_channels l where l.product_id = p.id and l.sales_channel_id = ${anyOf(ids)})`;

function adminConditions(f: AdminListFilters): SQL {
  const conds: SQL[] = [sql`p.deleted_at is null`];
  if (f.q) conds.push(searchCondition(f.q));
  if (f.id) conds.push(sql`p.id = ${anyOf(f.id)}`);
  if (f.status) conds.push(sql`p.status = ${anyOf(f.status)}`);
  if (f.handle) conds.push(sql`p.handle = ${anyOf(f.handle)}`);
  if (f.collection_id) conds.push(sql`p.collection_id = ${anyOf(f.collection_id)}`);
  if (f.category_id) {
    conds.push(
      sql`exists (select 1 from product_categories c where c.product_id = p.id and c.category_id = ${anyOf(f.category_id)})`,
    );
  }
  if (f.sales_channel_id) conds.push(inChannels(f.sales_channel_id));
  return sql.join(conds, sql` and `);
}

interface ListShape {
  where: SQL;
  page: Page;
  productJson: SQL;
  /** A q search: matches come from the trigram index, then get counted and sorted. */
  search?: boolean;
}

/**
 * `{ products, count, limit, offset }` as JSON text, one statement, JSON built for the page rows
 * only (the admin list; the store reads stored documents, store-queries.ts). Two shapes:
 * - default: the page and the count in one pass (count(*) over ()), walking products in id order;
 * - search: the matches are materialized first, because with `limit` the planner would rather
 *   walk the primary key evaluating the LIKE on every row than use the trigram index.
 * When the page is empty (limit 0, offset past the end) the count comes from the fallback
 * subquery, which PostgreSQL evaluates only in that case.
 */
function listStatement(s: ListShape): SQL {
  const { limit, offset } = s.page;
  let ctes: SQL;
  let count: SQL;
  if (s.search) {
    ctes = sql`matches as materialized (select p.id from products p where ${s.where}),
      page as (select id, count(*) over () as total from matches order by id limit ${limit} offset ${offset})`;
    count = sql`coalesce((select max(total) from page), (select count(*) from matches))`;
  } else {
    ctes = sql`page as (
      select p.id, count(*) over () as total from products p where ${s.where} order by p.id limit ${limit} offset ${offset})`;
    count = sql`coalesce((select max(total) from page), (select count(*) from products p where ${s.where}))`;
  }
  return sql`with ${ctes}
    select json_build_object(
      'products', coalesce((select json_agg(${s.productJson} order by p.id) from page join products p on p.id = page.id), '[]'::json),
      'count', ${count}, 'limit', ${limit}::int, 'offset', ${offset}::int
    )::text as body`;
}

// A statement with a LIKE pattern is not prepared: its plan (trigram index or not) depends on the value.
const run = <T>(db: Executor, query: SQL, prepare: boolean) =>
  prepare ? preparedRows<T>(db, query) : rows<T>(db, query);

export async function listAdminProductsJson(db: Executor, filters: AdminListFilters, page: Page): Promise<string> {
  const statement = listStatement({
    where: adminConditions(filters),
    page,
    productJson: ADMIN_PRODUCT_JSON,
    search: !!filters.q,
  });
  const [row] = await run<{ body: string }>(db, statement, !filters.q);
  return row.body;
}

/** `{ product }` as JSON text, or undefined when there is no live product with this id. */
export async function findAdminProductJson(db: Executor, id: string): Promise<string | undefined> {
  const [row] = await rows<{ body: string }>(
    db,
    sql`select json_build_object('product', ${ADMIN_PRODUCT_JSON})::text as body from products p where p.id = ${id} and p.deleted_at is null`,
  );
  return row?.body;
}

/** The same product as an object (for event payloads and write responses). */
export async function findAdminProduct<T>(db: Executor, id: string): Promise<T | undefined> {
  const [row] = await rows<{ product: T }>(
    db,
    sql`select ${ADMIN_PRODUCT_JSON} as product from products p where p.id = ${id}`,
  );
  return row?.product;
}
