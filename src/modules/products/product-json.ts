import { sql, type SQL } from 'drizzle-orm';

/**
 * The product as JSON, built by PostgreSQL for the row aliased `p`. Reads render whole pages
 * in one statement and hand the text straight to the client, so Node never parses or
 * re-serializes the catalog (the store list is the hot path). The shape is `Product` /
 * `StoreProduct` in schema.ts; tests check it against those schemas.
 */

/** ISO 8601 in UTC with milliseconds, exactly what Date#toISOString writes elsewhere in the API. */
const iso = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const OPTIONS = `coalesce((
  select json_agg(json_build_object(
    'id', o.id, 'title', o.title,
    'values', (select coalesce(json_agg(json_build_object('value', x.value, 'option_id', o.id) order by x.ord), '[]'::json)
               from jsonb_array_elements_text(o.values) with ordinality x(value, ord))
  ) order by o.rank, o.id)
  from product_options o where o.product_id = p.id), '[]'::json)`;

// Variants store their options as { <option title>: <value> }; the API shows Medusa's array form.
// Driven by the product's options (an index scan) rather than by jsonb_each, which plans a hash
// join per variant; the CASE skips the subquery for variants without options.
const VARIANT_OPTIONS = `case when v.options is null then '[]'::json else coalesce((
  select json_agg(json_build_object('value', v.options->>o.title, 'option_id', o.id, 'option', json_build_object('id', o.id, 'title', o.title)) order by o.rank, o.id)
  from product_options o where o.product_id = v.product_id and v.options ? o.title), '[]'::json) end`;

const PRICES = `coalesce((
  select json_agg(json_build_object('id', pr.id, 'currency_code', pr.currency_code, 'amount', pr.amount, 'variant_id', pr.variant_id) order by pr.currency_code)
  from prices pr where pr.variant_id = v.id), '[]'::json)`;

const PRICE_REF = `json_build_object('id', pr.id, 'price_list_id', null, 'price_list_type', null, 'min_quantity', null, 'max_quantity', null)`;
const RAW_AMOUNT = `json_build_object('value', pr.amount::text, 'precision', 20)`;

// Needs a CTE `region(currency_code, is_tax_inclusive)` in the enclosing statement.
const CALCULATED_PRICE = `(
  select json_build_object(
    'id', pr.id, 'calculated_amount', pr.amount, 'original_amount', pr.amount, 'currency_code', pr.currency_code,
    'is_calculated_price_price_list', false, 'is_calculated_price_tax_inclusive', r.is_tax_inclusive,
    'is_original_price_price_list', false, 'is_original_price_tax_inclusive', r.is_tax_inclusive,
    'raw_calculated_amount', ${RAW_AMOUNT}, 'raw_original_amount', ${RAW_AMOUNT},
    'calculated_price', ${PRICE_REF}, 'original_price', ${PRICE_REF})
  from region r join prices pr on pr.variant_id = v.id and pr.currency_code = r.currency_code)`;

// A variant's keys in three runs around the two values the store reads live (stock, updated_at):
// the full object is built from them, and so are the store documents' static pieces (store-documents.ts).
const VARIANT_RUN_A = `'id', v.id, 'product_id', v.product_id, 'title', v.title, 'sku', v.sku,
    'manage_inventory', v.manage_inventory, 'allow_backorder', v.allow_backorder`;
const VARIANT_RUN_B = `'options', ${VARIANT_OPTIONS}, 'variant_rank', v.variant_rank, 'metadata', v.metadata,
    'created_at', ${iso('v.created_at')}`;
const VARIANT_RUN_C = `'prices', ${PRICES}`;

const variants = (withCalculatedPrice: boolean) => `coalesce((
  select json_agg(json_build_object(
    ${VARIANT_RUN_A}, 'inventory_quantity', v.inventory_quantity, ${VARIANT_RUN_B}, 'updated_at', ${iso('v.updated_at')},
    ${VARIANT_RUN_C}${withCalculatedPrice ? `, 'calculated_price', ${CALCULATED_PRICE}` : ''}
  ) order by v.variant_rank, v.id)
  from product_variants v where v.product_id = p.id and v.deleted_at is null), '[]'::json)`;

const SALES_CHANNELS = `coalesce((
  select json_agg(json_build_object('id', sc.id, 'name', sc.name) order by sc.id)
  from product_sales_channels l join sales_channels sc on sc.id = l.sales_channel_id and sc.deleted_at is null
  where l.product_id = p.id), '[]'::json)`;

const CATEGORIES = `coalesce((
  select json_agg(json_build_object('id', c.category_id) order by c.category_id)
  from product_categories c where c.product_id = p.id), '[]'::json)`;

const PRODUCT_FIELDS = `'id', p.id, 'title', p.title, 'subtitle', p.subtitle, 'handle', p.handle, 'description', p.description,
  'status', p.status, 'thumbnail', p.thumbnail, 'is_giftcard', p.is_giftcard, 'discountable', p.discountable,
  'collection_id', p.collection_id, 'type_id', p.type_id, 'external_id', p.external_id, 'metadata', p.metadata,
  'created_at', ${iso('p.created_at')}, 'updated_at', ${iso('p.updated_at')},
  'options', ${OPTIONS}`;

const product = (opts: { admin: boolean; calculatedPrice: boolean }) => `json_build_object(
  ${PRODUCT_FIELDS}, 'variants', ${variants(opts.calculatedPrice)}
  ${opts.admin ? `, 'sales_channels', ${SALES_CHANNELS}, 'categories', ${CATEGORIES}` : ''})`;

// Built once: the fragments are constant text, only the enclosing queries carry parameters.
export const ADMIN_PRODUCT_JSON: SQL = sql.raw(product({ admin: true, calculatedPrice: false }));
export const STORE_PRODUCT_JSON: SQL = sql.raw(product({ admin: false, calculatedPrice: false }));
export const STORE_PRODUCT_JSON_PRICED: SQL = sql.raw(product({ admin: false, calculatedPrice: true }));

// json_build_object writes `{"k" : v, "k2" : v2}`: a run's text without its braces joins others with ', '.
const inner = (run: string) =>
  `substr(json_build_object(${run})::text, 2, length(json_build_object(${run})::text) - 2)`;

/**
 * The store document of the product aliased `p` (the store shape above, cut where the store
 * merges live values): `head` is the JSON up to `"variants" : [`, and per live variant, in the
 * document's order, three pieces: before its stock, between its stock and its `updated_at`
 * value, and after that up to (not including) its closing brace. store-assembly.ts joins them.
 */
export const STORE_DOCUMENT_COLUMNS: SQL = sql.raw(`
  '{' || ${inner(PRODUCT_FIELDS)} || ', "variants" : [' as head,
  coalesce((select array_agg(v.id order by v.variant_rank, v.id)
    from product_variants v where v.product_id = p.id and v.deleted_at is null), '{}') as variant_ids,
  coalesce((select array_agg(part order by v.variant_rank, v.id, x.n)
    from product_variants v cross join lateral (values
      (1, '{' || ${inner(VARIANT_RUN_A)} || ', "inventory_quantity" : '),
      (2, ', ' || ${inner(VARIANT_RUN_B)} || ', "updated_at" : '),
      (3, ', ' || ${inner(VARIANT_RUN_C)})) x(n, part)
    where v.product_id = p.id and v.deleted_at is null), '{}') as variant_parts`);

/** The live variant values a document leaves out, in the same text form as the full builder. */
export const LIVE_UPDATED_AT = sql.raw(iso('v.updated_at'));
