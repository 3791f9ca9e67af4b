import { sql } from 'drizzle-orm';
import { rows, type Db, type Executor } from '../../platform/db/database.ts';
import { compactJson } from './compact-json.ts';
import { STORE_DOCUMENT_COLUMNS } from './product-json.ts';
import { splitVariants } from './store-assembly.ts';
import { SEARCH_TEXT } from './queries.ts';

/**
 * Bump when the store shape or its text changes (a new field in product-json.ts, a new table in
 * the product; 3: compacted): the next start rebuilds every stored document
 * (rebuildStoreDocumentsIfOutdated).
 */
export const STORE_DOCUMENT_SHAPE = 4;

const ids = (productIds: string[]) => sql.param([...new Set(productIds)].sort());

/**
 * THE hook of the store read model. Every write that changes what the store shows of a product
 * calls it in its own transaction, with the ids of the products it touched: the product row, its
 * options, variants (except stock, which reads live), prices, and its sales channel links. Today:
 * products/service.ts (create, update, delete), batch-service.ts (once per batch) and
 * sales-channels/service.ts (link, unlink, channel delete). A new table in the product shape
 * (collections, categories, images, tags) wires its writes here and adds its field in
 * product-json.ts (and bumps STORE_DOCUMENT_SHAPE).
 *
 * Rebuilds the documents of these products from the tables (published, live products get one,
 * others lose theirs) and their rows in store_listing. PostgreSQL builds each document; it comes
 * back here to be compacted (compact-json.ts: ~11 % of every store read's bytes) and goes in
 * with the statement that drops the documents of products no longer shown. Cost: one product's
 * JSON per id, and its text there and back, after locking the products' rows (see below).
 */
export async function refreshStoreDocuments(tx: Executor, productIds: string[]): Promise<void> {
  if (!productIds.length) return;
  // Every write that changes a product's document calls this in its transaction, so each holds
  // the product's row lock from here to its commit: a second refresh of the product waits for the
  // first transaction to commit, then builds from a fresh snapshot (each statement takes its own)
  // that has its changes, instead of overwriting its document with one built before it committed.
  // NO KEY UPDATE leaves other tables' foreign key checks free; id order keeps refreshes of
  // overlapping sets from deadlocking each other.
  await tx.execute(
    sql`select id from products where id = any(${ids(productIds)}::text[]) order by id for no key update`,
  );
  const built = await rows<BuiltDocument>(
    tx,
    sql`select p.id as product_id, p.handle,
      array(select l.sales_channel_id from product_sales_channels l where l.product_id = p.id order by 1) as channel_ids,
      ${STORE_DOCUMENT_COLUMNS}
    from products p where p.id = any(${ids(productIds)}::text[]) and p.deleted_at is null and p.status = 'published'`,
  );
  const documents = built.map((d) => ({
    product_id: d.product_id,
    handle: d.handle,
    channel_ids: d.channel_ids,
    head: compactJson(d.head),
    variant_ids: splitVariants(d.variant_ids),
    variant_parts: splitVariants(d.variant_parts).map(compactJson),
  }));
  await tx.execute(sql`with gone_links as (delete from store_listing where product_id = any(${ids(productIds)}::text[])),
      gone as (delete from store_documents d where d.product_id = any(${ids(productIds)}::text[])
        and not d.product_id = any(${sql.param(documents.map((d) => d.product_id))}::text[]))
    insert into store_documents (product_id, handle, channel_ids, head, variant_ids, variant_parts)
    select x.product_id, x.handle, x.channel_ids, x.head, x.variant_ids, x.variant_parts
    from json_to_recordset(${JSON.stringify(documents)}::json)
      as x(product_id text, handle text, channel_ids text[], head text, variant_ids text[], variant_parts text[])
    on conflict (product_id) do update set handle = excluded.handle, channel_ids = excluded.channel_ids,
      head = excluded.head, variant_ids = excluded.variant_ids, variant_parts = excluded.variant_parts`);
  await tx.execute(sql`insert into store_listing (sales_channel_id, product_id, search)
    select unnest(d.channel_ids), d.product_id, ${SEARCH_TEXT}
    from store_documents d join products p on p.id = d.product_id
    where d.product_id = any(${ids(productIds)}::text[])`);
}

interface BuiltDocument {
  product_id: string;
  handle: string;
  channel_ids: string[];
  head: string;
  /** Joined by U+0001 (STORE_DOCUMENT_COLUMNS). */
  variant_ids: string;
  variant_parts: string;
}

/**
 * At start (bootstrap): when the stored documents were built for another shape, or never, builds
 * them all again in one transaction (readers keep the old ones until it commits). Instances
 * starting together take turns on an advisory lock; the later ones find the shape current.
 */
export async function rebuildStoreDocumentsIfOutdated(db: Db): Promise<number> {
  const current = async (ex: Executor) =>
    (await rows<{ shape: number }>(ex, sql`select shape from store_documents_state where id = 1`))[0]?.shape ===
    STORE_DOCUMENT_SHAPE;
  if (await current(db)) return 0;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7300005)`);
    if (await current(tx)) return 0;
    await tx.execute(sql`delete from store_listing`);
    await tx.execute(sql`delete from store_documents`);
    let after = '';
    let built = 0;
    for (;;) {
      const batch = await rows<{ id: string }>(
        tx,
        sql`select id from products where id > ${after} and deleted_at is null and status = 'published' order by id limit 500`,
      );
      if (!batch.length) break;
      const list = batch.map((r) => r.id);
      await refreshStoreDocuments(tx, list);
      built += list.length;
      after = list[list.length - 1];
    }
    await tx.execute(sql`insert into store_documents_state (id, shape) values (1, ${STORE_DOCUMENT_SHAPE})
      on conflict (id) do update set shape = excluded.shape`);
    return built;
  });
}
