import { sql, type SQL } from 'drizzle-orm';
import { scaleSql } from '../../platform/money/currencies.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';

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

/**
 * A price's amount as the request speaks it: the stored integer, or (AMOUNT_UNITS=major) that
 * integer divided by the currency's 10^exponent in numeric arithmetic (exact), trailing zeros
 * trimmed so 1000 cents is 10 and 1999 is 19.99. Costs one division per price in the statement.
 */
const AMOUNT = (units: AmountUnits) =>
  units === 'minor' ? 'pr.amount' : `trim_scale(pr.amount::numeric / ${scaleSql('pr.currency_code')})`;

const PRICES = (units: AmountUnits) => `coalesce((
  select json_agg(json_build_object('id', pr.id, 'currency_code', pr.currency_code, 'amount', ${AMOUNT(units)}, 'variant_id', pr.variant_id) order by pr.currency_code)
  from prices pr where pr.variant_id = v.id), '[]'::json)`;

const PRICE_REF = `json_build_object('id', pr.id, 'price_list_id', null, 'price_list_type', null, 'min_quantity', null, 'max_quantity', null)`;
const RAW_AMOUNT = (units: AmountUnits) => `json_build_object('value', (${AMOUNT(units)})::text, 'precision', 20)`;

// Needs a CTE `region(currency_code, is_tax_inclusive)` in the enclosing statement.
const CALCULATED_PRICE = (units: AmountUnits) => `(
  select json_build_object(
    'id', pr.id, 'calculated_amount', ${AMOUNT(units)}, 'original_amount', ${AMOUNT(units)}, 'currency_code', pr.currency_code,
    'is_calculated_price_price_list', false, 'is_calculated_price_tax_inclusive', r.is_tax_inclusive,
    'is_original_price_price_list', false, 'is_original_price_tax_inclusive', r.is_tax_inclusive,
    'raw_calculated_amount', ${RAW_AMOUNT(units)}, 'raw_original_amount', ${RAW_AMOUNT(units)},
    'calculated_price', ${PRICE_REF}, 'original_price', ${PRICE_REF})
  from region r join prices pr on pr.variant_id = v.id and pr.currency_code = r.currency_code)`;

const variants = (withCalculatedPrice: boolean, units: AmountUnits) => `coalesce((
  select json_agg(json_build_object(
    'id', v.id, 'product_id', v.product_id, 'title', v.title, 'sku', v.sku,
    'manage_inventory', v.manage_inventory, 'allow_backorder', v.allow_backorder,
    'inventory_quantity', v.inventory_quantity, 'options', ${VARIANT_OPTIONS},
    'variant_rank', v.variant_rank, 'metadata', v.metadata,
    'created_at', ${iso('v.created_at')}, 'updated_at', ${iso('v.updated_at')},
    'prices', ${PRICES(units)}${withCalculatedPrice ? `, 'calculated_price', ${CALCULATED_PRICE(units)}` : ''}
  ) order by v.variant_rank, v.id)
  from product_variants v where v.product_id = p.id and v.deleted_at is null), '[]'::json)`;

const SALES_CHANNELS = `coalesce((
  select json_agg(json_build_object('id', sc.id, 'name', sc.name) order by sc.id)
  from product_sales_channels l join sales_channels sc on sc.id = l.sales_channel_id and sc.deleted_at is null
  where l.product_id = p.id), '[]'::json)`;

const CATEGORIES = `coalesce((
  select json_agg(json_build_object('id', c.category_id) order by c.category_id)
  from product_categories c where c.product_id = p.id), '[]'::json)`;

const product = (opts: { admin: boolean; calculatedPrice: boolean; units: AmountUnits }) => `json_build_object(
  'id', p.id, 'title', p.title, 'subtitle', p.subtitle, 'handle', p.handle, 'description', p.description,
  'status', p.status, 'thumbnail', p.thumbnail, 'is_giftcard', p.is_giftcard, 'discountable', p.discountable,
  'collection_id', p.collection_id, 'type_id', p.type_id, 'external_id', p.external_id, 'metadata', p.metadata,
  'created_at', ${iso('p.created_at')}, 'updated_at', ${iso('p.updated_at')},
  'options', ${OPTIONS}, 'variants', ${variants(opts.calculatedPrice, opts.units)}
  ${opts.admin ? `, 'sales_channels', ${SALES_CHANNELS}, 'categories', ${CATEGORIES}` : ''})`;

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

/** Minor units always: event payloads and the objects write routes answer (the money hook converts those). */
export const ADMIN_PRODUCT_JSON: SQL = BY_UNITS.minor.admin;
