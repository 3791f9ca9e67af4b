import { and, asc, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { type Executor, rows } from '../../platform/db/database.ts';
import { writeTogether } from '../../platform/db/one-statement.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { newId } from '../../platform/ids.ts';
import { productTagLinks } from '../product-labels/tables.ts';
import { productImages } from './media-tables.ts';
import { ADMIN_PRODUCT_JSON } from './product-json.ts';
import { prices, productCategories, productOptions, productSalesChannels, productVariants } from './tables.ts';
import { type OptionRow, PLAIN_PRICE_UPSERT, type PriceInsert, type VariantRow } from './write-queries.ts';

const tagLink = tableAs(productTagLinks, 'l');

/**
 * The set-based writes of updateProductsIn (bulk-update.ts) and createProductsIn (bulk-create.ts): each statement changes the rows of
 * every product of the set at once, so a batch costs the same number of round trips whatever its
 * size. A row's changes travel as one JSON document (`jsonb_to_recordset`), one parameter however
 * many rows; a field left out of a row's patch keeps its column's value, as a single update's
 * `set` of only the given fields does.
 */

const list = (values: unknown[]) => sql`${sql.param(values)}`;
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** How a patched column's value is read from the row's patch `x.p`. */
type Cast = 'text' | 'boolean' | 'double precision' | 'int' | 'jsonb';

/** `col = case when the patch has col then its value else the row's own end`, for each column. */
function patched(alias: string, columns: Record<string, Cast>): SQL {
  const sets = Object.entries(columns).map(([column, cast]) => {
    const value =
      cast === 'jsonb'
        ? `nullif(x.p -> '${column}', 'null'::jsonb)`
        : cast === 'text'
          ? `x.p ->> '${column}'`
          : `(x.p ->> '${column}')::${cast}`;
    return `${column} = case when x.p ? '${column}' then ${value} else ${alias}.${column} end`;
  });
  return sql.raw(sets.join(',\n    '));
}

const PHYSICAL: Record<string, Cast> = {
  weight: 'double precision',
  length: 'double precision',
  height: 'double precision',
  width: 'double precision',
  hs_code: 'text',
  mid_code: 'text',
  origin_country: 'text',
  material: 'text',
};

/** The product columns an update may set (service.ts SCALAR_FIELDS). */
export const PRODUCT_PATCH_COLUMNS: Record<string, Cast> = {
  title: 'text',
  subtitle: 'text',
  description: 'text',
  handle: 'text',
  status: 'text',
  thumbnail: 'text',
  is_giftcard: 'boolean',
  discountable: 'boolean',
  collection_id: 'text',
  external_id: 'text',
  type_id: 'text',
  shipping_profile_id: 'text',
  metadata: 'jsonb',
  ...PHYSICAL,
};

/** The variant columns an update may set (all of VariantUpsert but id, sku and prices). */
export const VARIANT_PATCH_COLUMNS: Record<string, Cast> = {
  title: 'text',
  barcode: 'text',
  ean: 'text',
  upc: 'text',
  thumbnail: 'text',
  manage_inventory: 'boolean',
  allow_backorder: 'boolean',
  inventory_quantity: 'int',
  options: 'jsonb',
  variant_rank: 'int',
  metadata: 'jsonb',
  ...PHYSICAL,
};

/**
 * Locks the live products among `ids` for the rest of the transaction (as lockLiveProduct does one),
 * in id order so that overlapping sets do not deadlock: their ids and current handles.
 */
export function lockLiveProductsOf(db: Executor, ids: string[]): Promise<{ id: string; handle: string }[]> {
  return rows(
    db,
    sql`select id, handle from products where id = any(${list(ids)}::text[]) and deleted_at is null
      order by id for update`,
  );
}

/** The first of `handles` a live product holds. */
export async function firstTakenHandle(db: Executor, handles: string[]): Promise<string | undefined> {
  if (!handles.length) return undefined;
  const [row] = await rows<{ handle: string }>(
    db,
    sql`select handle from products where handle = any(${list(handles)}::text[]) and deleted_at is null limit 1`,
  );
  return row?.handle;
}

export function optionsOf(db: Executor, productIds: string[]): Promise<OptionRow[]> {
  return db
    .select()
    .from(productOptions)
    .where(inArray(productOptions.product_id, productIds))
    .orderBy(asc(productOptions.product_id), asc(productOptions.rank), asc(productOptions.id));
}

export async function updateOptionsSet(db: Executor, changes: { id: string; values: string[]; rank: number }[]) {
  if (!changes.length) return;
  await db.execute(sql`update product_options o set "values" = x."values", rank = x.rank
    from jsonb_to_recordset(${json(changes)}) as x(id text, "values" jsonb, rank int) where o.id = x.id`);
}

export async function deleteOptionsSet(db: Executor, ids: string[]) {
  if (ids.length) await db.execute(sql`delete from product_options where id = any(${list(ids)}::text[])`);
}

/** Rows per INSERT: a statement carries at most 65,535 parameters (see bulk-create.ts). */
const ROWS_PER_STATEMENT = 1000;

export async function insertChunked<T>(items: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) await insert(items.slice(i, i + ROWS_PER_STATEMENT));
}

export async function insertOptionsSet(db: Executor, added: OptionRow[]) {
  await insertChunked(added, (chunk) => db.insert(productOptions).values(chunk));
}

/** Live variants of the products, in each product's variant order. */
export function liveVariantsOf(db: Executor, productIds: string[]): Promise<VariantRow[]> {
  return db
    .select()
    .from(productVariants)
    .where(and(inArray(productVariants.product_id, productIds), isNull(productVariants.deleted_at)))
    .orderBy(asc(productVariants.product_id), asc(productVariants.variant_rank), asc(productVariants.id));
}

/**
 * SKUs among `skus` that a live variant holds outside `replacing` (the products whose whole variant
 * list this update gives: their variants either take the SKU the list says or are deleted).
 */
export async function skusTakenOutside(db: Executor, skus: string[], replacing: string[]): Promise<string[]> {
  if (!skus.length) return [];
  const found = await rows<{ sku: string }>(
    db,
    sql`select sku from product_variants where sku = any(${list(skus)}::text[]) and deleted_at is null
      and not product_id = any(${list(replacing)}::text[])`,
  );
  return found.map((r) => r.sku);
}

export async function softDeleteVariantsSet(db: Executor, ids: string[], now: Date) {
  if (!ids.length) return;
  await db.execute(sql`update product_variants set deleted_at = ${now.toISOString()}::timestamptz,
    updated_at = ${now.toISOString()}::timestamptz where id = any(${list(ids)}::text[])`);
}

/** Frees the SKUs of variants about to change theirs, so two variants can swap SKUs in one update. */
export async function clearSkusSet(db: Executor, ids: string[]) {
  if (ids.length) await db.execute(sql`update product_variants set sku = null where id = any(${list(ids)}::text[])`);
}

/** Each variant's given fields (`p`) and its final SKU, in one statement. */
export async function updateVariantsSet(
  db: Executor,
  changes: { id: string; sku: string | null; p: Record<string, unknown> }[],
  now: Date,
) {
  if (!changes.length) return;
  await db.execute(sql`update product_variants v set
    ${patched('v', VARIANT_PATCH_COLUMNS)},
    sku = x.sku,
    updated_at = ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${json(changes)}) as x(id text, sku text, p jsonb) where v.id = x.id`);
}

/** Each product's given fields (`p`), in one statement. */
export async function updateProductsSet(
  db: Executor,
  changes: { id: string; p: Record<string, unknown> }[],
  now: Date,
) {
  if (!changes.length) return;
  await db.execute(sql`update products t set
    ${patched('t', PRODUCT_PATCH_COLUMNS)},
    updated_at = ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${json(changes)}) as x(id text, p jsonb) where t.id = x.id`);
}

/**
 * replaceVariantPrices for many variants: the given variants lose their tiered prices and the
 * range-less prices of currencies they no longer list; the tiers are inserted again and the
 * range-less prices upserted (a currency that stays keeps its price id).
 */
export async function replacePricesSet(db: Executor, variantIds: string[], given: PriceInsert[]) {
  if (!variantIds.length) return;
  const plain = given.filter((r) => r.min_quantity == null && r.max_quantity == null);
  const tiers = given.filter((r) => !(r.min_quantity == null && r.max_quantity == null));
  await db.execute(sql`delete from prices p where p.variant_id = any(${list(variantIds)}::text[])
    and (p.min_quantity is not null or p.max_quantity is not null or not exists (
      select 1 from unnest(${list(plain.map((r) => r.variant_id))}::text[], ${list(plain.map((r) => r.currency_code))}::text[])
        as k(variant_id, currency_code)
      where k.variant_id = p.variant_id and k.currency_code = p.currency_code))`);
  await insertChunked(tiers, (chunk) => db.insert(prices).values(chunk));
  await insertChunked(plain, (chunk) => db.insert(prices).values(chunk).onConflictDoUpdate(PLAIN_PRICE_UPSERT));
}

/**
 * The products' sales channel links become `links` (each product named in `productIds` loses the
 * others). Inserted in channel order, so concurrent writers take the channels' counter rows in the
 * same order (service.ts liveChannelIds).
 */
export async function replaceChannelLinksSet(
  db: Executor,
  productIds: string[],
  links: { product_id: string; sales_channel_id: string }[],
) {
  if (!productIds.length) return;
  await db.execute(sql`delete from product_sales_channels where product_id = any(${list(productIds)}::text[])`);
  const sorted = [...links].sort(
    (a, b) => a.sales_channel_id.localeCompare(b.sales_channel_id) || a.product_id.localeCompare(b.product_id),
  );
  await insertChunked(sorted, (chunk) => db.insert(productSalesChannels).values(chunk));
}

export async function replaceCategoryLinksSet(
  db: Executor,
  productIds: string[],
  links: { product_id: string; category_id: string }[],
) {
  if (!productIds.length) return;
  await db.execute(sql`delete from product_categories where product_id = any(${list(productIds)}::text[])`);
  await insertChunked(links, (chunk) => db.insert(productCategories).values(chunk));
}

/** Tag links not listed go, listed ones are added (those already there stay as they are). */
export async function replaceTagLinksSet(
  db: Executor,
  productIds: string[],
  links: { product_id: string; tag_id: string }[],
) {
  if (!productIds.length) return;
  await db.execute(sql`delete from ${from(tagLink)} where ${tagLink.product_id} = any(${list(productIds)}::text[])
    and not exists (select 1 from unnest(${list(links.map((l) => l.product_id))}::text[], ${list(links.map((l) => l.tag_id))}::text[])
      as k(product_id, tag_id) where k.product_id = ${tagLink.product_id} and k.tag_id = ${tagLink.tag_id})`);
  await insertChunked(links, (chunk) => db.insert(productTagLinks).values(chunk).onConflictDoNothing());
}

export function imagesOf(db: Executor, productIds: string[]): Promise<{ id: string; product_id: string }[]> {
  return rows(db, sql`select id, product_id from product_images where product_id = any(${list(productIds)}::text[])`);
}

/** Kept images take their new URL, rank and (when given) metadata; `p` holds the metadata when given. */
export async function updateImagesSet(
  db: Executor,
  changes: { id: string; url: string; rank: number; p: Record<string, unknown> }[],
  now: Date,
) {
  if (!changes.length) return;
  await db.execute(sql`update product_images i set url = x.url, rank = x.rank,
    ${patched('i', { metadata: 'jsonb' })}, updated_at = ${now.toISOString()}::timestamptz
    from jsonb_to_recordset(${json(changes)}) as x(id text, url text, rank int, p jsonb) where i.id = x.id`);
}

export async function deleteImagesSet(db: Executor, ids: string[]) {
  if (!ids.length) return;
  await db.execute(sql`delete from product_variant_images where image_id = any(${list(ids)}::text[])`);
  await db.execute(sql`delete from product_images where id = any(${list(ids)}::text[])`);
}

export async function insertImagesSet(db: Executor, added: (typeof productImages.$inferInsert)[]) {
  await insertChunked(added, (chunk) => db.insert(productImages).values(chunk));
}

/**
 * One `product.<name>` per product with the admin JSON as it is now (the payload a single write
 * gives it), built and written by one statement, in the order of `productIds`. With `answer`,
 * the payloads come back (by product id): a write that answers its products then reads their
 * JSON once instead of twice.
 */
export async function emitProductEvents(
  db: Executor,
  name: 'product.created' | 'product.updated',
  productIds: string[],
  now: Date,
  answer = false,
): Promise<Map<string, unknown>> {
  if (!productIds.length) return new Map();
  const eventIds = productIds.map(() => newId('evt'));
  const written = await rows<{ product_id: string; payload: unknown }>(
    db,
    sql`insert into outbox (id, name, payload, created_at)
    select e.event_id, ${name}::text, (${ADMIN_PRODUCT_JSON})::jsonb, ${now.toISOString()}::timestamptz
    from unnest(${list(productIds)}::text[], ${list(eventIds)}::text[]) with ordinality as e(product_id, event_id, n)
    join products p on p.id = e.product_id
    order by e.n
    ${answer ? sql`returning payload ->> 'id' as product_id, payload` : sql``}`,
  );
  return new Map(written.map((r) => [r.product_id, r.payload]));
}

/**
 * Soft delete of live products already locked (lockLiveProductsOf) with their live variants, and
 * one `product.deleted` `{ id }` each in the order given, as one statement: the parts only name
 * the ids, so none reads another's rows. Stock items, levels and channel links stay, as they do
 * for one product (the channel counters follow the products' trigger).
 */
export async function softDeleteProductsSet(db: Executor, ids: string[], now: Date): Promise<void> {
  if (!ids.length) return;
  const at = sql`${now.toISOString()}::timestamptz`;
  await writeTogether(db, [
    sql`update products set deleted_at = ${at}, updated_at = ${at} where id = any(${list(ids)}::text[])`,
    sql`update product_variants set deleted_at = ${at}, updated_at = ${at}
      where product_id = any(${list(ids)}::text[]) and deleted_at is null`,
    sql`insert into outbox (id, name, payload, created_at)
      select e.event_id, 'product.deleted', jsonb_build_object('id', e.product_id), ${at}
      from unnest(${list(ids)}::text[], ${list(ids.map(() => newId('evt')))}::text[]) with ordinality as e(product_id, event_id, n)
      order by e.n`,
  ]);
}
