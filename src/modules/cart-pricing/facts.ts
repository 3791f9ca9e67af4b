import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { preparedRows, textArray } from '../../platform/db/prepared.ts';
import type { CandidateRate } from '../taxes/select-rates.ts';
import type { StoredPromotion } from '../promotions/stored.ts';
import type { TaxLineJson } from '../totals/shapes.ts';

/**
 * What prices a cart beyond its lines' amounts, read in the cart's own statement (for the cart
 * row aliased `c`): its products' collection, type, categories and tags (what promotion rules
 * and tax overrides look at), the tax rates of its shipping address, whether its currency's
 * prices include tax, and the promotions it applied or may get automatically. Read-only reads of
 * the products, taxes and promotions tables.
 */
export interface ProductFacts {
  id: string;
  collection_id: string | null;
  type_id: string | null;
  categories: { id: string }[];
  tags: { id: string }[];
}

export interface PricingFacts {
  products: ProductFacts[];
  tax_rates: CandidateRate[];
  currency_tax_inclusive: boolean;
  /**
   * Whether prices scoped to the cart's region include tax (shipping options' amounts): the
   * region's price preference, else the region's own flag when set, else the currency's.
   */
  region_tax_inclusive?: boolean;
  /** The groups of the cart's customer (what `customer.groups.id` rules read). */
  customer_groups?: string[];
  promotions: StoredPromotion[];
  /** The provider of the address's tax region (`tp_system`, or a plugin's `tp_…`); null without one. */
  tax_provider_id: string | null;
  /** A plugin provider's tax lines by line and method id (provider-taxes.ts), when it computed them. */
  provider_tax?: { items: Record<string, TaxLineJson[]>; shipping: Record<string, TaxLineJson[]> };
}

// Each product read by primary key in a LATERAL that `offset 0` keeps from being flattened:
// without statistics the planner would otherwise hash-join the whole products table.
const products = (
  ids: SQL,
) => sql`(select coalesce(json_agg(json_build_object('id', p.id, 'collection_id', p.collection_id, 'type_id', p.type_id,
    'categories', (select coalesce(json_agg(json_build_object('id', pc.category_id) order by pc.category_id), '[]'::json)
      from product_categories pc where pc.product_id = p.id),
    'tags', (select coalesce(json_agg(json_build_object('id', t.tag_id) order by t.tag_id), '[]'::json)
      from product_tag_links t where t.product_id = p.id))), '[]'::json)
  from (select distinct x.id from unnest(${ids}) x(id)) x
  cross join lateral (select * from products p where p.id = x.id offset 0) p)`;

// A province matches as Medusa's tax module matches it: lower-case, with or without its country prefix.
const TAX_RATES = sql`(select coalesce(json_agg(json_build_object('id', r.id, 'rate', r.rate, 'code', r.code, 'name', r.name,
    'is_default', r.is_default, 'is_combinable', r.is_combinable,
    'region', json_build_object('id', g.id, 'province_code', g.province_code, 'parent_id', g.parent_id, 'provider_id', g.provider_id),
    'rules', (select coalesce(json_agg(json_build_object('reference', x.reference, 'reference_id', x.reference_id)), '[]'::json)
      from tax_rate_rules x where x.tax_rate_id = r.id)) order by r.created_at, r.id), '[]'::json)
  from tax_regions g join tax_rates r on r.tax_region_id = g.id and r.deleted_at is null
  where g.deleted_at is null and g.country_code = lower(c.shipping_address->>'country_code')
    and (g.province_code is null or g.province_code in (lower(c.shipping_address->>'province'),
      lower(c.shipping_address->>'country_code') || '-' || lower(c.shipping_address->>'province'))))`;

// The province's own region when it names a provider, else its country's (Medusa's choice).
const TAX_PROVIDER = sql`(select g.provider_id from tax_regions g
  where g.deleted_at is null and g.country_code = lower(c.shipping_address->>'country_code')
    and (g.province_code is null or g.province_code in (lower(c.shipping_address->>'province'),
      lower(c.shipping_address->>'country_code') || '-' || lower(c.shipping_address->>'province')))
  order by g.province_code is null, g.id limit 1)`;

const CURRENCY_INCLUSIVE = sql`coalesce((select pp.is_tax_inclusive from price_preferences pp
  where pp.attribute = 'currency_code' and pp.value = c.currency_code and pp.deleted_at is null), false)`;

// A region's own preference, else a region marked tax-inclusive, else its currency's. (Medusa
// makes a region's preference with every region, false unless the region is tax-inclusive; ours
// exists only when written, so a shop's shipping follows its currency until then.)
const REGION_INCLUSIVE = sql`coalesce((select pp.is_tax_inclusive from price_preferences pp
  where pp.attribute = 'region_id' and pp.value = c.region_id and pp.deleted_at is null),
  (select true from regions r where r.id = c.region_id and r.is_tax_inclusive), ${CURRENCY_INCLUSIVE})`;

const CUSTOMER_GROUPS = sql`(select coalesce(json_agg(g.customer_group_id order by g.customer_group_id), '[]'::json)
  from customer_group_customers g where c.customer_id is not null and g.customer_id = c.customer_id)`;

// Applied codes in the order they were applied, then automatic promotions, oldest first.
const PROMOTIONS = sql`(select coalesce(json_agg(json_build_object('promotion', to_json(p), 'campaign', to_json(cp),
    'applied', a.created_at is not null) order by a.created_at nulls last, p.created_at, p.id), '[]'::json)
  from promotions p
  left join cart_promotions a on a.cart_id = c.id and a.promotion_id = p.id
  left join campaigns cp on cp.id = p.campaign_id and cp.deleted_at is null
  where p.deleted_at is null and (a.created_at is not null or (p.is_automatic and p.status = 'active')))`;

/** The facts of the cart aliased `c`, for the products `productIds` (default: its lines'). */
export const pricingFacts = (
  productIds: SQL = sql`array(select l.product_id from cart_line_items l where l.cart_id = c.id)`,
) => sql`json_build_object('products', ${products(productIds)}, 'tax_rates', ${TAX_RATES},
  'currency_tax_inclusive', ${CURRENCY_INCLUSIVE}, 'region_tax_inclusive', ${REGION_INCLUSIVE},
  'customer_groups', ${CUSTOMER_GROUPS}, 'promotions', ${PROMOTIONS}, 'tax_provider_id', ${TAX_PROVIDER})`;

export const PRICING_FACTS = pricingFacts();

/** Promotions by id with their campaigns, as codes applied (`applied: true`), in the order a cart's facts list codes applied together. */
export async function promotionsByIds(db: Executor, ids: string[]): Promise<StoredPromotion[]> {
  if (!ids.length) return [];
  return preparedRows<StoredPromotion>(
    db,
    sql`select to_json(p) as promotion, to_json(cp) as campaign, true as applied
      from promotions p left join campaigns cp on cp.id = p.campaign_id and cp.deleted_at is null
      where p.id = any(${textArray(ids)}) and p.deleted_at is null order by p.created_at, p.id`,
  );
}

/**
 * The facts of a cart about to be written (its lines not yet in the table), with the promotions
 * `codeIds` applied as if their codes were already in `cart_promotions` (a cart created with
 * `promo_codes`, a draft order's codes): those first, then the automatic ones, as a stored cart's
 * facts list them, so the same cart prices the same whichever way its codes came.
 */
export async function newCartFacts(
  db: Executor,
  cart: { id: string; currency_code: string; shipping_address: unknown; region_id: string; customer_id: string | null },
  productIds: string[],
  codeIds: string[] = [],
): Promise<PricingFacts> {
  const [row] = await preparedRows<{ f: PricingFacts }>(
    db,
    sql`select ${pricingFacts(textArray(productIds))} as f from (select ${cart.id}::text as id,
      ${cart.currency_code}::text as currency_code, ${JSON.stringify(cart.shipping_address)}::jsonb as shipping_address,
      ${cart.region_id}::text as region_id, ${cart.customer_id}::text as customer_id) c`,
  );
  if (!codeIds.length) return row.f;
  // The cart's id joins no row of cart_promotions yet: the facts' promotions are the automatic ones.
  const automatic = row.f.promotions.filter((p) => !codeIds.includes(p.promotion.id));
  return { ...row.f, promotions: [...(await promotionsByIds(db, codeIds)), ...automatic] };
}
