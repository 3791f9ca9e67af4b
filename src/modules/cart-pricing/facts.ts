import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { preparedRows, textArray } from '../../platform/db/prepared.ts';
import { from, rendered, tableAs } from '../../platform/db/typed-sql.ts';
import { cartLineItems } from '../carts/tables.ts';
import { customerGroupCustomers } from '../customer-groups/tables.ts';
import { productTagLinks } from '../product-labels/tables.ts';
import { productCategories, products as productTable } from '../products/tables.ts';
import { campaigns, cartPromotions, promotions } from '../promotions/tables.ts';
import { regions } from '../regions/tables.ts';
import { pricePreferences, taxRateRules, taxRates, taxRegions } from '../taxes/tables.ts';
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

// Other modules' tables under the names the statement gives them.
const prod = tableAs(productTable, 'p');
const pc = tableAs(productCategories, 'pc');
const tl = tableAs(productTagLinks, 't');
const rate = tableAs(taxRates, 'r');
const taxRegion = tableAs(taxRegions, 'g');
const rule = tableAs(taxRateRules, 'x');
const pp = tableAs(pricePreferences, 'pp');
const region = tableAs(regions, 'r');
const member = tableAs(customerGroupCustomers, 'g');
const promo = tableAs(promotions, 'p');
const applied = tableAs(cartPromotions, 'a');
const campaign = tableAs(campaigns, 'cp');
const line = tableAs(cartLineItems, 'l');

// Each product read by primary key in a LATERAL that `offset 0` keeps from being flattened:
// without statistics the planner would otherwise hash-join the whole products table.
const products = (
  ids: SQL,
) => sql`(select coalesce(json_agg(json_build_object('id', ${prod.id}, 'collection_id', ${prod.collection_id}, 'type_id', ${prod.type_id},
    'categories', (select coalesce(json_agg(json_build_object('id', ${pc.category_id}) order by ${pc.category_id}), '[]'::json)
      from ${from(pc)} where ${pc.product_id} = ${prod.id}),
    'tags', (select coalesce(json_agg(json_build_object('id', ${tl.tag_id}) order by ${tl.tag_id}), '[]'::json)
      from ${from(tl)} where ${tl.product_id} = ${prod.id}))), '[]'::json)
  from (select distinct x.id from unnest(${ids}) x(id)) x
  cross join lateral (select * from ${from(prod)} where ${prod.id} = x.id offset 0) ${prod})`;

// A province matches as Medusa's tax module matches it: lower-case, with or without its country prefix.
const TAX_RATES =
  rendered(sql`(select coalesce(json_agg(json_build_object('id', ${rate.id}, 'rate', ${rate.rate}, 'code', ${rate.code}, 'name', ${rate.name},
    'is_default', ${rate.is_default}, 'is_combinable', ${rate.is_combinable},
    'region', json_build_object('id', ${taxRegion.id}, 'province_code', ${taxRegion.province_code}, 'parent_id', ${taxRegion.parent_id}, 'provider_id', ${taxRegion.provider_id}),
    'rules', (select coalesce(json_agg(json_build_object('reference', ${rule.reference}, 'reference_id', ${rule.reference_id})), '[]'::json)
      from ${from(rule)} where ${rule.tax_rate_id} = ${rate.id})) order by ${rate.created_at}, ${rate.id}), '[]'::json)
  from ${from(taxRegion)} join ${from(rate)} on ${rate.tax_region_id} = ${taxRegion.id} and ${rate.deleted_at} is null
  where ${taxRegion.deleted_at} is null and ${taxRegion.country_code} = lower(c.shipping_address->>'country_code')
    and (${taxRegion.province_code} is null or ${taxRegion.province_code} in (lower(c.shipping_address->>'province'),
      lower(c.shipping_address->>'country_code') || '-' || lower(c.shipping_address->>'province'))))`);

// The province's own region when it names a provider, else its country's (Medusa's choice).
const TAX_PROVIDER = rendered(sql`(select ${taxRegion.provider_id} from ${from(taxRegion)}
  where ${taxRegion.deleted_at} is null and ${taxRegion.country_code} = lower(c.shipping_address->>'country_code')
    and (${taxRegion.province_code} is null or ${taxRegion.province_code} in (lower(c.shipping_address->>'province'),
      lower(c.shipping_address->>'country_code') || '-' || lower(c.shipping_address->>'province')))
  order by ${taxRegion.province_code} is null, ${taxRegion.id} limit 1)`);

const CURRENCY_INCLUSIVE = rendered(sql`coalesce((select ${pp.is_tax_inclusive} from ${from(pp)}
  where ${pp.attribute} = 'currency_code' and ${pp.value} = c.currency_code and ${pp.deleted_at} is null), false)`);

// A region's own preference, else a region marked tax-inclusive, else its currency's. (Medusa
// makes a region's preference with every region, false unless the region is tax-inclusive; ours
// exists only when written, so a shop's shipping follows its currency until then.)
const REGION_INCLUSIVE = rendered(sql`coalesce((select ${pp.is_tax_inclusive} from ${from(pp)}
  where ${pp.attribute} = 'region_id' and ${pp.value} = c.region_id and ${pp.deleted_at} is null),
  (select true from ${from(region)} where ${region.id} = c.region_id and ${region.is_tax_inclusive}), ${CURRENCY_INCLUSIVE})`);

const CUSTOMER_GROUPS =
  rendered(sql`(select coalesce(json_agg(${member.customer_group_id} order by ${member.customer_group_id}), '[]'::json)
  from ${from(member)} where c.customer_id is not null and ${member.customer_id} = c.customer_id)`);

// Applied codes in the order they were applied, then automatic promotions, oldest first.
const PROMOTIONS =
  rendered(sql`(select coalesce(json_agg(json_build_object('promotion', to_json(${promo}), 'campaign', to_json(${campaign}),
    'applied', ${applied.created_at} is not null) order by ${applied.created_at} nulls last, ${promo.created_at}, ${promo.id}), '[]'::json)
  from ${from(promo)}
  left join ${from(applied)} on ${applied.cart_id} = c.id and ${applied.promotion_id} = ${promo.id}
  left join ${from(campaign)} on ${campaign.id} = ${promo.campaign_id} and ${campaign.deleted_at} is null
  where ${promo.deleted_at} is null and (${applied.created_at} is not null or (${promo.is_automatic} and ${promo.status} = 'active')))`);

/** The facts of the cart aliased `c`, for the products `productIds` (default: its lines'). */
export const pricingFacts = (
  productIds: SQL = sql`array(select ${line.product_id} from ${from(line)} where ${line.cart_id} = c.id)`,
) => sql`json_build_object('products', ${products(productIds)}, 'tax_rates', ${TAX_RATES},
  'currency_tax_inclusive', ${CURRENCY_INCLUSIVE}, 'region_tax_inclusive', ${REGION_INCLUSIVE},
  'customer_groups', ${CUSTOMER_GROUPS}, 'promotions', ${PROMOTIONS}, 'tax_provider_id', ${TAX_PROVIDER})`;

export const PRICING_FACTS = rendered(pricingFacts());

/** Promotions by id with their campaigns, as codes applied (`applied: true`), in the order a cart's facts list codes applied together. */
export async function promotionsByIds(db: Executor, ids: string[]): Promise<StoredPromotion[]> {
  if (!ids.length) return [];
  return preparedRows<StoredPromotion>(
    db,
    sql`select to_json(${promo}) as promotion, to_json(${campaign}) as campaign, true as applied
      from ${from(promo)} left join ${from(campaign)} on ${campaign.id} = ${promo.campaign_id} and ${campaign.deleted_at} is null
      where ${promo.id} = any(${textArray(ids)}) and ${promo.deleted_at} is null order by ${promo.created_at}, ${promo.id}`,
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
