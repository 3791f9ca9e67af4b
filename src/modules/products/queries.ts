import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { preparedRows } from './prepared.ts';
import { ADMIN_PRODUCT_JSON, PRODUCT_SUMMARY_JSON, productJsonIn } from './product-json.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';
import type { AdminListFilters, StoreListFilters } from './schema.ts';
import { regionCte } from './region-cte.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { categories } from '../categories/tables.ts';
import { productTagLinks } from '../product-labels/tables.ts';
import { escapeLike } from '../../platform/db/like-pattern.ts';

/**
 * Read queries: each answers with one statement. Writes are in write-queries.ts.
 * Every query aliases products as `p`; conditions below are built for that alias.
 */

/** Exactly the expression of the trigram index products_search_trgm_idx, or the index is not used. */
export const SEARCH_TEXT = sql.raw(`lower(p.title || ' ' || p.handle || ' ' || coalesce(p.description, ''))`);

/** `q` as a LIKE pattern: a case-insensitive substring; `%`, `_` and `\` in q are literal characters. */
export const searchPattern = (q: string): SQL => sql`'%' || lower(${escapeLike(q)}) || '%'`;

function searchCondition(q: string): SQL {
  return sql`${SEARCH_TEXT} like ${searchPattern(q)}`;
}

const anyOf = (values: string[]) => sql`any(${sql.param(values)}::text[])`;

const inChannels = (ids: string[]) =>
  sql`exists (select 1 from product_sales_channels l where l.product_id = p.id and l.sales_channel_id = ${anyOf(ids)})`;

export function adminConditions(f: AdminListFilters): SQL {
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
  conds.push(...catalogConditions(f, false));
  return sql.join(conds, sql` and `);
}

const top = tableAs(categories, 'cat');
const child = tableAs(categories, 'ch');
const tagLinks = tableAs(productTagLinks, 'tl');

/** A live category; in the store also an active, public one. */
const liveCategory = (c: typeof top | typeof child, store: boolean) =>
  store ? sql`${c.deleted_at} is null and ${c.is_active} and not ${c.is_internal}` : sql`${c.deleted_at} is null`;

/** The named categories and every one below them; in the store, only active, public ones (and their subtrees). */
const categoryTree = (ids: string[], store: boolean) => sql`(
  with recursive tree(id) as (
    select ${top.id} from ${from(top)} where ${top.id} = ${anyOf(ids)} and ${liveCategory(top, store)}
    union
    select ${child.id} from ${from(child)} join tree on ${child.parent_category_id} = tree.id
    where ${liveCategory(child, store)}
  ) select id from tree)`;

export type CatalogFilters = Pick<
  StoreListFilters,
  'collection_id' | 'category_id' | 'tag_id' | 'type_id' | 'is_giftcard'
>;

function catalogConditions(f: CatalogFilters, store: boolean): SQL[] {
  const conds: SQL[] = [];
  if (store && f.collection_id) conds.push(sql`p.collection_id = ${anyOf(f.collection_id)}`);
  if (store && f.category_id) {
    conds.push(
      sql`exists (select 1 from product_categories c where c.product_id = p.id and c.category_id in ${categoryTree(f.category_id, true)})`,
    );
  }
  if (f.tag_id) {
    conds.push(
      sql`exists (select 1 from ${from(tagLinks)} where ${tagLinks.product_id} = p.id and ${tagLinks.tag_id} = ${anyOf(f.tag_id)})`,
    );
  }
  if (f.type_id) conds.push(sql`p.type_id = ${anyOf(f.type_id)}`);
  if (f.is_giftcard !== undefined) conds.push(sql`p.is_giftcard = ${f.is_giftcard}`);
  return conds;
}

/**
 * The store's catalog narrowing (collection, category tree, tag, type, gift card) as a condition on
 * a product id, or undefined when there is none: the store documents' list (store-queries.ts)
 * narrows by it with the same rules as the full builder.
 */
export function storeCatalogIds(f: CatalogFilters, productId: SQL): SQL | undefined {
  const conds = catalogConditions(f, true);
  if (!conds.length) return undefined;
  return sql`${productId} in (select p.id from products p where ${sql.join(conds, sql` and `)})`;
}

/** What a storefront may see: published, live, in one of `channelIds` (never empty here). */
function storeVisible(channelIds: string[]): SQL {
  return sql`p.deleted_at is null and p.status = 'published' and ${inChannels(channelIds)}`;
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
 * only (the admin list; the store's lists come from the stored documents, store-queries.ts). Two
 * shapes of the page CTE:
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

export async function listAdminProductsJson(
  db: Executor,
  filters: AdminListFilters,
  page: Page,
  units?: AmountUnits,
): Promise<string> {
  const statement = listStatement({
    where: adminConditions(filters),
    page,
    productJson: productJsonIn(units).admin,
    search: !!filters.q,
  });
  const [row] = await run<{ body: string }>(db, statement, !filters.q);
  return row.body;
}

/** `{ product }` as JSON text, or undefined when there is no live product with this id. */
export async function findAdminProductJson(db: Executor, id: string, units?: AmountUnits): Promise<string | undefined> {
  const [row] = await rows<{ body: string }>(
    db,
    sql`select json_build_object('product', ${productJsonIn(units).admin})::text as body from products p where p.id = ${id} and p.deleted_at is null`,
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

/** Several products as objects, by id (a batch's write answers), in one statement. */
export async function findAdminProducts<T>(db: Executor, ids: string[]): Promise<Map<string, T>> {
  if (!ids.length) return new Map();
  const found = await rows<{ id: string; product: T }>(
    db,
    sql`select p.id, ${ADMIN_PRODUCT_JSON} as product from products p where p.id = ${anyOf(ids)}`,
  );
  return new Map(found.map((r) => [r.id, r.product]));
}

export interface StoreRead {
  regionFound: boolean;
  body: string | null;
}

/** `{ product }` as JSON text when the product is visible in `channelIds`, in one statement. */
export async function findStoreProductJson(
  db: Executor,
  id: string,
  channelIds: string[],
  regionId?: string,
  units?: AmountUnits,
): Promise<StoreRead> {
  const productJson = regionId ? productJsonIn(units).storePriced : productJsonIn(units).store;
  const where = storeVisible(channelIds);
  const [row] = await preparedRows<{ body: string | null; region_found: boolean }>(
    db,
    sql`with ${regionId ? sql`${regionCte(regionId)},` : sql``} found as (
        select json_build_object('product', ${productJson})::text as body from products p where p.id = ${id} and ${where}
      )
      select (select body from found) as body, ${regionId ? sql`exists (select 1 from region)` : sql`true`} as region_found`,
  );
  return { regionFound: row.region_found, body: row.body };
}

/**
 * Products of some collections or categories (`fields=*products`), as summaries, grouped by
 * that id. `channelIds` limits them to what a storefront may see; without it, every live product.
 */
export async function listProductSummariesJson<T>(
  db: Executor,
  by: 'collection' | 'category',
  groupIds: string[],
  channelIds?: string[],
): Promise<Map<string, T[]>> {
  if (!groupIds.length) return new Map();
  const visible = channelIds ? storeVisible(channelIds) : sql`p.deleted_at is null`;
  const group =
    by === 'collection'
      ? sql`select p.collection_id as group_id, p.id from products p where p.collection_id = ${anyOf(groupIds)} and ${visible}`
      : sql`select l.category_id as group_id, p.id from product_categories l join products p on p.id = l.product_id
            where l.category_id = ${anyOf(groupIds)} and ${visible}`;
  const found = await rows<{ group_id: string; products: T[] }>(
    db,
    sql`with g as (${group}) select g.group_id, json_agg(${PRODUCT_SUMMARY_JSON} order by p.id) as products
        from g join products p on p.id = g.id group by g.group_id`,
  );
  return new Map(found.map((r) => [r.group_id, r.products]));
}
