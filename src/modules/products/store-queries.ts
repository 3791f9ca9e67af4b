import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { listPriceSql, type PriceListContext } from '../price-lists/store-prices.ts';
import { preparedRows } from './prepared.ts';
import { LIVE_UPDATED_AT } from './product-json.ts';
import { type CatalogFilters, searchPattern, storeCatalogIds } from './queries.ts';
import type { DocumentRow } from './store-assembly.ts';
import type { StoreListFilters } from './schema.ts';
import { regionCte } from './region-cte.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { inventoryItems, inventoryLevels, variantInventoryItems } from '../inventory/tables.ts';

/**
 * The store's reads, from the stored documents (store-documents.ts): a page of product ids from
 * store_listing's primary key (in product order, stopping at the limit), each product's document
 * by primary key, and per variant its live stock in the channels (`channelQuantity`) and `updated_at` (and, with a region, its price
 * in the region's currency) by primary key. Every step is an index lookup whose plan does not
 * depend on statistics; products-plans.test.ts asserts it on both databases.
 */

export type StoreFilters = Pick<StoreListFilters, 'q' | 'id' | 'handle'> & CatalogFilters & { channelIds: string[] };

export interface StoreRows {
  total: number;
  region_found: boolean;
  currency_code: string | null;
  tax_inclusive: boolean | null;
  /** One per product of the page, in order (none when the page is empty). */
  products: (DocumentRow & { product_id: string })[];
}

type Meta = Omit<StoreRows, 'products'>;
type Row = DocumentRow & Meta & { product_id: string | null };

const textArray = (values: string[]) => sql`${sql.param(values)}::text[]`;

// region_found tells an unknown region apart (region-cte.ts).
const regionColumns = (regionId: string | undefined) =>
  regionId
    ? sql`exists (select 1 from region) as region_found, (select currency_code from region) as currency_code,
        (select is_tax_inclusive from region) as tax_inclusive`
    : sql`true as region_found, null::text as currency_code, null::boolean as tax_inclusive`;

/**
 * Per variant of the document `d`, in its order: stock, `updated_at` and, with a region, the id
 * and amount of its price in the region's currency. Scalar subqueries on primary keys, so the
 * plan is one index lookup per variant whatever the statistics (a join here plans as a hash join
 * over every variant when the tables were never analyzed). Sent as one text (values joined by
 * U+0002, variants by U+0001, which JSON text never holds raw): drivers parse array literals
 * character by character in JavaScript, which cost more than the whole statement.
 */
const live = (
  regionId: string | undefined,
  channelIds: string[],
  variantIds = sql`d.variant_ids`,
  lists?: PriceListContext,
) => sql`array_to_string(array(
    select array_to_string(coalesce((select array[${channelQuantity(channelIds)}::text, ${LIVE_UPDATED_AT}
        ${regionId ? sql`, (select pr.id || ' ' || pr.amount from prices pr where pr.variant_id = v.id and pr.currency_code = (select currency_code from region) and pr.min_quantity is null and pr.max_quantity is null)` : sql``}
        ${regionId && lists ? sql`, ${listPriceSql(sql`v.id`, sql`(select currency_code from region)`, sql`${regionId}`, lists)}` : sql``}]
      from product_variants v where v.id = x.id), '{}'::text[]), chr(2), '')
    from unnest(${variantIds}) with ordinality x(id, n) order by x.n), chr(1)) as live`;

const levels = tableAs(inventoryLevels, 'lv');
const links = tableAs(variantInventoryItems, 'l');
const items = tableAs(inventoryItems, 'i');

/**
 * What a stock-managed variant `v` can sell in these channels now: the minimum over its live items
 * of floor(available at the channels' locations / required_quantity), as Medusa's store answers
 * `inventory_quantity` for the request's sales channel. The channels' locations are gathered once
 * (an uncorrelated subquery: one InitPlan per statement; a channel linked to no location counts
 * every location, as checkout's allocation does, see migration checkout_reservations); then per
 * variant its links by (variant, item) and per item its levels by (item, location), all index
 * lookups (the item's liveness a scalar subquery: a join plans as a scan of every item without
 * statistics). A variant without items (or not managing stock) shows its own number. The inventory
 * module's tables are read through their declared columns: a renamed one fails the typecheck.
 */
const channelQuantity = (channelIds: string[]) => sql`case when v.manage_inventory then coalesce((
      select min(floor(coalesce((select sum(${levels.stocked_quantity} - ${levels.reserved_quantity}) from ${from(levels)}
          where ${levels.inventory_item_id} = ${links.inventory_item_id} and ${levels.location_id} = any(array(select cl.location_id
            from unnest(${textArray(channelIds)}) ch(id) cross join lateral inventory_channel_locations(ch.id) cl))), 0)::numeric
        / ${links.required_quantity}))::int
      from ${from(links)}
      where ${links.variant_id} = v.id
        and coalesce((select ${items.deleted_at} is null from ${from(items)} where ${items.id} = ${links.inventory_item_id}), false)),
      v.inventory_quantity) else v.inventory_quantity end`;

/** The document's variant pieces as one text, joined by U+0001 (see `live`). */
const PARTS = sql`array_to_string(d.variant_parts, chr(1)) as variant_parts`;

function statement(ctes: SQL[], total: SQL, products: SQL, regionId: string | undefined): SQL {
  const all = regionId ? [regionCte(regionId), ...ctes] : ctes;
  return sql`${all.length ? sql`with ${sql.join(all, sql`, `)}` : sql``}
    select meta.*, x.* from (select ${total} as total, ${regionColumns(regionId)}) meta
    left join lateral (${products}) x on true
    order by x.product_id`;
}

const pageDocuments = (regionId: string | undefined, channelIds: string[], lists?: PriceListContext) =>
  sql`select page.product_id, d.head, ${PARTS}, ${live(regionId, channelIds, undefined, lists)}
      from page join store_documents d on d.product_id = page.product_id`;

function toRows<P extends { product_id: string | null }>(
  rs: (P & Meta)[],
): Meta & { products: (P & { product_id: string })[] } {
  const [first] = rs;
  return {
    total: Number(first.total),
    region_found: first.region_found,
    currency_code: first.currency_code,
    tax_inclusive: first.tax_inclusive,
    products: rs.filter((r): r is P & Meta & { product_id: string } => r.product_id !== null),
  };
}

/**
 * A page of the store list. The plain list (one channel, no filter) walks store_listing's key and
 * reads its total from product_channel_counts; otherwise the matching ids are gathered, counted
 * and paged (a q search first materializes its matches from the trigram index).
 */
export async function readStoreList(
  db: Executor,
  f: StoreFilters,
  page: Page,
  regionId?: string,
  lists?: PriceListContext,
): Promise<StoreRows> {
  return readStoreListWith<Row>(db, f, page, regionId, pageDocuments(regionId, f.channelIds, lists));
}

/** The ids of a page of the store list (and its total and region), without their documents. */
export async function readStoreListIds(db: Executor, f: StoreFilters, page: Page, regionId?: string) {
  // Its rows carry the id only: no document columns.
  return readStoreListWith<{ product_id: string }>(db, f, page, regionId, sql`select page.product_id from page`);
}

/** The documents of `ids` (a slice of a page read by readStoreListIds) still in `channelIds`, in product order. */
export async function readStoreDocuments(
  db: Executor,
  ids: string[],
  channelIds: string[],
  regionId?: string,
  lists?: PriceListContext,
): Promise<StoreRows> {
  const ctes = [
    sql`page as (select product_id from store_documents
      where product_id = any(${textArray(ids)}) and channel_ids && ${textArray(channelIds)})`,
  ];
  return toRows(
    await preparedRows<Row>(db, statement(ctes, sql`0`, pageDocuments(regionId, channelIds, lists), regionId)),
  );
}

async function readStoreListWith<P extends { product_id: string | null }>(
  db: Executor,
  f: StoreFilters,
  page: Page,
  regionId: string | undefined,
  pageProducts: SQL,
): Promise<Meta & { products: (P & { product_id: string })[] }> {
  const { limit, offset } = page;
  const catalog = storeCatalogIds(f, sql`l.product_id`);
  if (f.channelIds.length === 1 && !f.q && !f.id && !f.handle && !catalog) {
    const channel = f.channelIds[0];
    // store_listing_page (migration store_listing_page): the ordered index walk, stopping at the limit.
    const ctes = [sql`page as (select product_id from store_listing_page(${channel}, ${limit}, ${offset}))`];
    const total = sql`coalesce((select visible_products from product_channel_counts where sales_channel_id = ${channel}), 0)`;
    return toRows(await preparedRows<P & Meta>(db, statement(ctes, total, pageProducts, regionId)));
  }
  // With q, the channel test is written so no index can serve it: without statistics the planner
  // would AND the trigram matches with a bitmap of the whole channel (most of a search's time).
  const channel = f.q ? sql`(l.sales_channel_id || '')` : sql`l.sales_channel_id`;
  const conds: SQL[] = [sql`${channel} = any(${textArray(f.channelIds)})`];
  if (f.id) conds.push(sql`l.product_id = any(${textArray(f.id)})`);
  if (f.handle)
    conds.push(
      sql`l.product_id in (select product_id from store_documents where handle = any(${textArray(f.handle)}))`,
    );
  // store_listing carries the search text (trigram index): matches are visible ones already.
  if (f.q) conds.push(sql`l.search like ${searchPattern(f.q)}`);
  if (catalog) conds.push(catalog);
  const ids = f.channelIds.length === 1 ? sql`l.product_id` : sql`distinct l.product_id`;
  const ctes = [
    sql`found as materialized (select ${ids} from store_listing l where ${sql.join(conds, sql` and `)})`,
    sql`page as (select product_id, count(*) over () as total from found order by product_id limit ${limit} offset ${offset})`,
  ];
  const total = sql`coalesce((select max(total) from page), (select count(*) from found))`;
  const query = statement(ctes, total, pageProducts, regionId);
  // A LIKE pattern is not prepared: its plan (trigram index or not) depends on the value.
  return toRows(f.q ? await rows<P & Meta>(db, query) : await preparedRows<P & Meta>(db, query));
}

/** One product's document when it is visible in one of `channelIds`. */
export async function readStoreProduct(
  db: Executor,
  id: string,
  channelIds: string[],
  regionId?: string,
  lists?: PriceListContext,
): Promise<StoreRows> {
  const products = sql`select d.product_id, d.head, ${PARTS}, ${live(regionId, channelIds, undefined, lists)} from store_documents d
    where d.product_id = ${id} and d.channel_ids && ${textArray(channelIds)}`;
  return toRows(await preparedRows<Row>(db, statement([], sql`0`, products, regionId)));
}

/** A product of a page of variants: its document's variant pieces, and the page's variants of it. */
export interface StoreVariantRow {
  product_id: string;
  /** The page's variants' positions in the document (from 1), joined by commas, in order. */
  positions: string;
  variant_parts: string;
  /** Live values of the page's variants only, in the same order (see `live`). */
  live: string;
}

export interface StoreVariantRows extends Meta {
  products: StoreVariantRow[];
}

/**
 * A page of the store's variants (`GET /store/product-variants`) from the stored documents: the
 * visible documents' variants in (product, document) order, which is `product_id, variant_rank,
 * id`, paged in SQL; then per product of the page its document's pieces once, with the live
 * values of the page's variants only. One statement, whatever the page's size. `ids` and
 * `productIds` narrow it (the id's product first, by the variants' primary key).
 */
export async function readStoreVariantPage(
  db: Executor,
  f: { channelIds: string[]; ids?: string[]; productIds?: string[] },
  page: Page,
  regionId?: string,
  lists?: PriceListContext,
): Promise<StoreVariantRows> {
  const conds: SQL[] = [sql`d.channel_ids && ${textArray(f.channelIds)}`];
  if (f.productIds) conds.push(sql`d.product_id = any(${textArray(f.productIds)})`);
  if (f.ids) {
    conds.push(
      sql`d.product_id in (select v.product_id from product_variants v where v.id = any(${textArray(f.ids)}))`,
    );
    conds.push(sql`x.id = any(${textArray(f.ids)})`);
  }
  const ctes = [
    sql`found as materialized (select d.product_id, x.id, x.n from store_documents d
      cross join lateral unnest(d.variant_ids) with ordinality x(id, n) where ${sql.join(conds, sql` and `)})`,
    sql`page as (select product_id, id, n, count(*) over () as total from found
      order by product_id, n limit ${page.limit} offset ${page.offset})`,
    sql`page_products as (select product_id, array_agg(id order by n) as ids, array_to_string(array_agg(n order by n), ',') as positions
      from page group by product_id)`,
  ];
  const total = sql`coalesce((select max(total) from page), (select count(*) from found))`;
  const products = sql`select pp.product_id, pp.positions, ${PARTS}, ${live(regionId, f.channelIds, sql`pp.ids`, lists)}
    from page_products pp join store_documents d on d.product_id = pp.product_id`;
  return toRows(await preparedRows<StoreVariantRow & Meta>(db, statement(ctes, total, products, regionId)));
}

/**
 * The store catalog's version (migration store_catalog_version): 16 rows on one page. Prepared on
 * the pool, as it runs for nearly every store read on PostgreSQL (store-cache.ts).
 */
export async function readCatalogVersion(db: Executor): Promise<number> {
  const [row] = await preparedRows<{ v: number }>(
    db,
    sql`select coalesce(sum(v), 0)::bigint as v from store_catalog_version`,
  );
  return Number(row.v);
}
