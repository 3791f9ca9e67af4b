import { sql, type SQL } from 'drizzle-orm';
import { namesOf } from '../../platform/db/typed-sql.ts';
import { scaleSql } from '../../platform/money/currencies.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';
import { sqlJsonObject } from '../../platform/http/schema-json.ts';
import { categories as categoryTable } from '../categories/tables.ts';
import { productCollections } from '../collections/tables.ts';
import { productTagLinks, productTags, productTypes } from '../product-labels/tables.ts';
import { salesChannels } from '../sales-channels/tables.ts';
import { CalculatedPrice, Price, PriceRef, RawAmount } from './response-schema.ts';

// Other modules' tables, named from their drizzle declarations.
const SC = namesOf(salesChannels);
const PC = namesOf(productCollections);
const PT = namesOf(productTypes);
const TG = namesOf(productTags);
const TL = namesOf(productTagLinks);
const CAT = namesOf(categoryTable);

/**
 * The product as JSON, built by PostgreSQL for the row aliased `p`. Reads render whole pages
 * in one statement and hand the text straight to the client, so Node never parses or
 * re-serializes the catalog (the store list is the hot path). The shape is `Product` /
 * `StoreProduct` in schema.ts; tests check it against those schemas and against
 * @medusajs/types. It always carries every relation a storefront reads (images, options,
 * variants, collection, categories, tags, type), so a `fields` expression costs nothing.
 */

/** ISO 8601 in UTC with milliseconds, exactly what Date#toISOString writes elsewhere in the API. */
const iso = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const isoOrNull = (col: string) => `case when ${col} is null then null else ${iso(col)} end`;
const stamps = (a: string) =>
  `'created_at', ${iso(`${a}.created_at`)}, 'updated_at', ${iso(`${a}.updated_at`)}, 'deleted_at', ${isoOrNull(`${a}.deleted_at`)}`;

/** Values are stored as text; their id is derived from option and value, so it is stable and shared with variants. */
const valueId = (optionId: string, value: string) => `'optval_' || substr(md5(${optionId} || ':' || ${value}), 1, 24)`;

const OPTIONS = `coalesce((
  select json_agg(json_build_object(
    'id', o.id, 'title', o.title, 'is_exclusive', false, 'metadata', null,
    'values', (select coalesce(json_agg(json_build_object('id', ${valueId('o.id', 'x.value')}, 'value', x.value, 'option_id', o.id) order by x.ord), '[]'::json)
               from jsonb_array_elements_text(o.values) with ordinality x(value, ord))
  ) order by o.rank, o.id)
  from product_options o where o.product_id = p.id), '[]'::json)`;

// Variants store their options as { <option title>: <value> }; the API shows Medusa's array form.
// Driven by the product's options (an index scan) rather than by jsonb_each, which plans a hash
// join per variant; the CASE skips the subquery for variants without options.
const VARIANT_OPTIONS = `case when v.options is null then '[]'::json else coalesce((
  select json_agg(json_build_object('id', ${valueId('o.id', '(v.options->>o.title)')}, 'value', v.options->>o.title, 'option_id', o.id, 'option', json_build_object('id', o.id, 'title', o.title, 'is_exclusive', false)) order by o.rank, o.id)
  from product_options o where o.product_id = v.product_id and v.options ? o.title), '[]'::json) end`;

/**
 * A price's amount as the request speaks it: the stored integer, or (AMOUNT_UNITS=major) that
 * integer divided by the currency's 10^exponent in numeric arithmetic (exact), trailing zeros
 * trimmed so 1000 cents is 10 and 1999 is 19.99. Costs one division per price in the statement.
 */
const AMOUNT = (units: AmountUnits) =>
  units === 'minor' ? 'pr.amount' : `trim_scale(pr.amount::numeric / ${scaleSql('pr.currency_code')})`;

// The price shapes' keys and order are the response schema's (schema-json.ts); only the values are SQL here.
const PRICE = (units: AmountUnits) =>
  sqlJsonObject(Price, {
    id: 'pr.id',
    currency_code: 'pr.currency_code',
    amount: AMOUNT(units),
    variant_id: 'pr.variant_id',
    min_quantity: 'pr.min_quantity',
    max_quantity: 'pr.max_quantity',
  });

const PRICES = (units: AmountUnits) => `coalesce((
  select json_agg(${PRICE(units)} order by pr.currency_code, pr.min_quantity nulls first, pr.id)
  from prices pr where pr.variant_id = v.id), '[]'::json)`;

const PRICE_REF = sqlJsonObject(PriceRef, {
  id: 'pr.id',
  price_list_id: 'null',
  price_list_type: 'null',
  min_quantity: 'null',
  max_quantity: 'null',
});
const RAW_AMOUNT = (units: AmountUnits) =>
  sqlJsonObject(RawAmount, { value: `(${AMOUNT(units)})::text`, precision: '20' });

// Needs a CTE `region(currency_code, is_tax_inclusive)` in the enclosing statement. Prices carry no
// tax here (taxes are not computed on catalog reads), so the with/without-tax amounts are the amount.
// The store's own writer of this shape, with price lists, is store-assembly.ts calculatedPrice.
const CALCULATED_PRICE = (units: AmountUnits) => `(
  select ${sqlJsonObject(CalculatedPrice, {
    id: 'pr.id',
    calculated_amount: AMOUNT(units),
    original_amount: AMOUNT(units),
    calculated_amount_with_tax: AMOUNT(units),
    calculated_amount_without_tax: AMOUNT(units),
    original_amount_with_tax: AMOUNT(units),
    original_amount_without_tax: AMOUNT(units),
    currency_code: 'pr.currency_code',
    is_calculated_price_price_list: 'false',
    is_calculated_price_tax_inclusive: 'r.is_tax_inclusive',
    is_original_price_price_list: 'false',
    is_original_price_tax_inclusive: 'r.is_tax_inclusive',
    raw_calculated_amount: RAW_AMOUNT(units),
    raw_original_amount: RAW_AMOUNT(units),
    calculated_price: PRICE_REF,
    original_price: PRICE_REF,
  })}
  from region r join prices pr on pr.variant_id = v.id and pr.currency_code = r.currency_code
    and pr.min_quantity is null and pr.max_quantity is null)`;

// Images are deleted for good (no deleted_at column).
const image = (a: string) =>
  `json_build_object('id', ${a}.id, 'url', ${a}.url, 'rank', ${a}.rank, 'metadata', ${a}.metadata,
  'created_at', ${iso(`${a}.created_at`)}, 'updated_at', ${iso(`${a}.updated_at`)}, 'deleted_at', null)`;

const IMAGES = `coalesce((select json_agg(${image('im')} order by im.rank, im.id)
  from product_images im where im.product_id = p.id), '[]'::json)`;

const VARIANT_IMAGES = `coalesce((select json_agg(${image('im')} order by im.rank, im.id)
  from product_variant_images vi join product_images im on im.id = vi.image_id where vi.variant_id = v.id), '[]'::json)`;

/** Shipping and customs attributes, on the product (`p`) and each variant (`v`). */
const physical = (a: string) =>
  ['weight', 'length', 'height', 'width', 'hs_code', 'mid_code', 'origin_country', 'material']
    .map((c) => `'${c}', ${a}.${c}`)
    .join(', ');

// A variant's keys in three runs around the two values the store reads live (stock, updated_at):
// the full object is built from them, and so are the store documents' static pieces (store-documents.ts).
const VARIANT_RUN_A = `'id', v.id, 'product_id', v.product_id, 'title', v.title, 'sku', v.sku,
    'barcode', v.barcode, 'ean', v.ean, 'upc', v.upc, 'thumbnail', v.thumbnail, ${physical('v')},
    'manage_inventory', v.manage_inventory, 'allow_backorder', v.allow_backorder`;
const VARIANT_RUN_B = `'options', ${VARIANT_OPTIONS}, 'images', ${VARIANT_IMAGES}, 'variant_rank', v.variant_rank,
    'metadata', v.metadata, 'created_at', ${iso('v.created_at')}`;
const VARIANT_RUN_C = (units: AmountUnits) => `'deleted_at', ${isoOrNull('v.deleted_at')}, 'prices', ${PRICES(units)}`;

/** One variant (aliased `v`), with its extra keys last. */
const variant = (units: AmountUnits, extra = '') => `json_build_object(
    ${VARIANT_RUN_A}, 'inventory_quantity', v.inventory_quantity, ${VARIANT_RUN_B}, 'updated_at', ${iso('v.updated_at')},
    ${VARIANT_RUN_C(units)}${extra})`;

const variants = (withCalculatedPrice: boolean, units: AmountUnits) => `coalesce((
  select json_agg(${variant(units, withCalculatedPrice ? `, 'calculated_price', ${CALCULATED_PRICE(units)}` : '')} order by v.variant_rank, v.id)
  from product_variants v where v.product_id = p.id and v.deleted_at is null), '[]'::json)`;

const SALES_CHANNELS = `coalesce((
  select json_agg(json_build_object('id', sc.${SC.id}, 'name', sc.${SC.name}) order by sc.${SC.id})
  from product_sales_channels l join ${SC.table} sc on sc.${SC.id} = l.sales_channel_id and sc.${SC.deleted_at} is null
  where l.product_id = p.id), '[]'::json)`;

const COLLECTION = `(select json_build_object('id', pc.${PC.id}, 'title', pc.${PC.title}, 'handle', pc.${PC.handle}, 'external_id', pc.${PC.external_id},
  'metadata', pc.${PC.metadata}, ${stamps('pc')}) from ${PC.table} pc where pc.${PC.id} = p.collection_id and pc.${PC.deleted_at} is null)`;

// Types and tags are the same kind of table (product-labels/tables.ts).
const label = (a: string, L: typeof PT) =>
  `json_build_object('id', ${a}.${L.id}, 'value', ${a}.${L.value}, 'metadata', ${a}.${L.metadata}, ${stamps(a)})`;
const TYPE = `(select ${label('pt', PT)} from ${PT.table} pt where pt.${PT.id} = p.type_id and pt.${PT.deleted_at} is null)`;
const TAGS = `coalesce((select json_agg(${label('tg', TG)} order by tg.${TG.value}, tg.${TG.id})
  from ${TL.table} tl join ${TG.table} tg on tg.${TG.id} = tl.${TL.tag_id} and tg.${TG.deleted_at} is null where tl.${TL.product_id} = p.id), '[]'::json)`;

/** The store sees categories that are active and not internal; the admin sees every live one. */
const visible = (a: string, store: boolean) =>
  `${a}.${CAT.deleted_at} is null${store ? ` and ${a}.${CAT.is_active} and not ${a}.${CAT.is_internal}` : ''}`;

/** A category's own columns (the admin's also say whether it is active and internal). */
export const categoryColumns = (a: string, store: boolean) =>
  `'id', ${a}.${CAT.id}, 'name', ${a}.${CAT.name}, 'description', ${a}.${CAT.description}, 'handle', ${a}.${CAT.handle}, 'rank', ${a}.${CAT.rank},
  'parent_category_id', ${a}.${CAT.parent_category_id}, 'external_id', ${a}.${CAT.external_id}, 'metadata', ${a}.${CAT.metadata},
  ${store ? '' : `'is_active', ${a}.${CAT.is_active}, 'is_internal', ${a}.${CAT.is_internal}, `}${stamps(a)}`;

// A product's categories with their parent and direct children one level deep, as Medusa's types describe them.
const categories = (store: boolean) => `coalesce((
  select json_agg(json_build_object(${categoryColumns('c', store)},
    'parent_category', (select json_build_object(${categoryColumns('pa', store)}, 'parent_category', null, 'category_children', '[]'::json)
      from ${CAT.table} pa where pa.${CAT.id} = c.${CAT.parent_category_id} and ${visible('pa', store)}),
    'category_children', coalesce((select json_agg(json_build_object(${categoryColumns('ch', store)}, 'parent_category', null, 'category_children', '[]'::json) order by ch.${CAT.rank}, ch.${CAT.id})
      from ${CAT.table} ch where ch.${CAT.parent_category_id} = c.${CAT.id} and ${visible('ch', store)}), '[]'::json)
  ) order by c.${CAT.rank}, c.${CAT.id})
  from product_categories l join ${CAT.table} c on c.${CAT.id} = l.category_id and ${visible('c', store)}
  where l.product_id = p.id), '[]'::json)`;

const SCALARS = `'id', p.id, 'title', p.title, 'subtitle', p.subtitle, 'handle', p.handle, 'description', p.description,
  'status', p.status, 'thumbnail', p.thumbnail, 'is_giftcard', p.is_giftcard, 'discountable', p.discountable,
  'collection_id', p.collection_id, 'type_id', p.type_id, 'external_id', p.external_id, ${physical('p')},
  'metadata', p.metadata, ${stamps('p')}`;

/** Everything of a product but its variants, which come last (store-documents.ts cuts there). */
const productHead = (admin: boolean) => `${SCALARS},
  'options', ${OPTIONS}, 'images', ${IMAGES}, 'collection', ${COLLECTION}, 'type', ${TYPE}, 'tags', ${TAGS},
  'categories', ${categories(!admin)}${admin ? `, 'sales_channels', ${SALES_CHANNELS}, 'shipping_profile_id', p.shipping_profile_id` : ''}`;

const product = (opts: { admin: boolean; calculatedPrice: boolean; units: AmountUnits }) =>
  `json_build_object(${productHead(opts.admin)}, 'variants', ${variants(opts.calculatedPrice, opts.units)})`;

/**
 * A product inside a collection or category (`fields=*products`): its own columns and images;
 * variants and options are not loaded there (null), which keeps a category tree cheap.
 */
const summary = `json_build_object(${SCALARS}, 'images', ${IMAGES}, 'variants', null, 'options', null)`;

const build = (units: AmountUnits) => ({
  admin: sql.raw(product({ admin: true, calculatedPrice: false, units })),
  store: sql.raw(product({ admin: false, calculatedPrice: false, units })),
  storePriced: sql.raw(product({ admin: false, calculatedPrice: true, units })),
});

// Built once per unit: the fragments are constant text, only the enclosing queries carry parameters.
const BY_UNITS: Record<AmountUnits, Record<'admin' | 'store' | 'storePriced', SQL>> = {
  minor: build('minor'),
  major: build('major'),
};

/** The product JSON fragments whose amounts are in `units` (the request's, `ctx.amountUnits`). */
export const productJsonIn = (units: AmountUnits | undefined) => BY_UNITS[units ?? 'minor'];

// The admin variant routes' JSON (variant-queries.ts): the variant as inside its product; the
// cross-product list (`GET /admin/product-variants`) adds its product's own columns, as Medusa's `*product`.
const VARIANT_PRODUCT = `, 'product', (select json_build_object(${SCALARS}) from products p where p.id = v.product_id)`;
const VARIANT_BY_UNITS: Record<AmountUnits, { plain: SQL; withProduct: SQL }> = {
  minor: { plain: sql.raw(variant('minor')), withProduct: sql.raw(variant('minor', VARIANT_PRODUCT)) },
  major: { plain: sql.raw(variant('major')), withProduct: sql.raw(variant('major', VARIANT_PRODUCT)) },
};

/** The variant JSON fragments (row aliased `v`) whose amounts are in `units`. */
export const variantJsonIn = (units: AmountUnits | undefined) => VARIANT_BY_UNITS[units ?? 'minor'];

/** A product option (row aliased `o`) with its values, as the product JSON shows it plus its `product_id`. */
export const OPTION_JSON: SQL =
  sql.raw(`json_build_object('id', o.id, 'title', o.title, 'is_exclusive', false, 'metadata', null,
  'product_id', o.product_id, 'rank', o.rank,
  'values', (select coalesce(json_agg(json_build_object('id', ${valueId('o.id', 'x.value')}, 'value', x.value, 'option_id', o.id, 'rank', x.ord - 1) order by x.ord), '[]'::json)
             from jsonb_array_elements_text(o.values) with ordinality x(value, ord)))`);

/** Minor units always: event payloads and the objects write routes answer (the money hook converts those). */
export const ADMIN_PRODUCT_JSON: SQL = BY_UNITS.minor.admin;
export const PRODUCT_SUMMARY_JSON: SQL = sql.raw(summary);

// json_build_object writes `{"k" : v, "k2" : v2}`: a run's text without its braces joins others with ', '.
const inner = (run: string) =>
  `substr(json_build_object(${run})::text, 2, length(json_build_object(${run})::text) - 2)`;

/**
 * The store document of the product aliased `p` (the store shape above, in minor units, cut where
 * the store merges live values): `head` is the JSON up to `"variants" : [`, and per live variant,
 * in the document's order, three pieces: before its stock, between its stock and its `updated_at`
 * value, and after that up to (not including) its closing brace. `variant_ids` and
 * `variant_parts` come as one text each, joined by U+0001 (JSON text never holds it raw; drivers
 * parse array literals slowly). store-documents.ts compacts the text before storing it, and
 * store-assembly.ts joins the pieces (and converts the prices' amounts when the request speaks
 * whole units).
 */
export const STORE_DOCUMENT_COLUMNS: SQL = sql.raw(`
  '{' || ${inner(productHead(false))} || ', "variants" : [' as head,
  array_to_string(array(select v.id from product_variants v where v.product_id = p.id and v.deleted_at is null
    order by v.variant_rank, v.id), chr(1)) as variant_ids,
  array_to_string(array(select part
    from product_variants v cross join lateral (values
      (1, '{' || ${inner(VARIANT_RUN_A)} || ', "inventory_quantity" : '),
      (2, ', ' || ${inner(VARIANT_RUN_B)} || ', "updated_at" : '),
      (3, ', ' || ${inner(VARIANT_RUN_C('minor'))})) x(n, part)
    where v.product_id = p.id and v.deleted_at is null order by v.variant_rank, v.id, x.n), chr(1)) as variant_parts`);

/** The live variant values a document leaves out, in the same text form as the full builder. */
export const LIVE_UPDATED_AT = sql.raw(iso('v.updated_at'));
