import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { cartLineItems } from '../carts/tables.ts';
import { fulfillmentSets, geoZones, serviceZones, shippingOptionRules } from '../fulfillment/tables.ts';
import { products } from '../products/tables.ts';
import { regionCountries, regions } from '../regions/tables.ts';
import { stockLocations } from '../stock-locations/tables.ts';
import type { ShippingOptionRow } from './queries.ts';

const g = tableAs(geoZones, 'g');
const rc = tableAs(regionCountries, 'rc');
const z = tableAs(serviceZones, 'z');
const fs = tableAs(fulfillmentSets, 'fs');
const sl = tableAs(stockLocations, 'sl');
const region = tableAs(regions, 'r');
const ru = tableAs(shippingOptionRules, 'ru');
const l = tableAs(cartLineItems, 'l');
const prod = tableAs(products, 'p');

/** What decides which options a cart may choose from. */
export interface CartShippingFacts {
  region_id: string;
  sales_channel_id: string | null;
  address: {
    country_code?: string | null;
    province?: string | null;
    city?: string | null;
    postal_code?: string | null;
  } | null;
  profile_ids: string[];
  is_return: boolean;
}

export type EligibleRow = ShippingOptionRow & {
  zone_name: string;
  set_id: string;
  set_name: string;
  set_type: string;
  location_id: string;
  location_name: string;
};

/**
 * A zone serves a cart when one of its geo zones matches the shipping address at its level
 * (country; country and province; … city; … postal code), when it is the zone of the cart's
 * region (the spec's flat options), or, for a cart with no address yet, when one of its
 * countries is the region's.
 */
function zoneServes(f: CartShippingFacts) {
  const a = f.address;
  const country = a?.country_code?.toLowerCase() ?? null;
  const geo = country
    ? sql`${g.country_code} = ${country} and (${g.type} = 'country'
        or (${g.province_code} = ${a?.province?.toLowerCase() ?? null} and (${g.type} = 'province'
          or (lower(${g.city}) = ${a?.city?.toLowerCase() ?? null} and (${g.type} = 'city'
            or (${g.type} = 'zip' and ${g.postal_expression} #>> '{}' = ${a?.postal_code ?? null}))))))`
    : sql`${g.type} = 'country' and ${g.country_code} in (select lower(${rc.iso_2}) from ${from(rc)} where ${rc.region_id} = ${f.region_id})`;
  return sql`(${z.region_id} = ${f.region_id} or exists (select 1 from ${from(g)} where ${g.service_zone_id} = ${z.id} and ${geo}))`;
}

/**
 * The live options of the cart's profiles in zones that serve it, whose set's location serves
 * the cart's sales channel (inventory_channel_locations: a channel linked to no location is
 * served by all), not switched off for the store, returns or not as asked.
 */
export async function eligibleOptionRows(db: Executor, f: CartShippingFacts): Promise<EligibleRow[]> {
  if (!f.profile_ids.length) return [];
  const channel = f.sales_channel_id
    ? sql`and ${fs.location_id} in (select location_id from inventory_channel_locations(${f.sales_channel_id}))`
    : sql``;
  const found = await rows<EligibleRow>(
    db,
    sql`select o.id, o.name, o.region_id, o.amount::float8 as amount, o.price_type, o.provider_id, o.service_zone_id,
          o.shipping_profile_id, o.type, o.type_id, o.data, o.metadata, o.created_at, o.updated_at, o.deleted_at,
          ${region.currency_code}, ${z.name} as zone_name, ${fs.id} as set_id, ${fs.name} as set_name, ${fs.type} as set_type,
          ${sl.id} as location_id, ${sl.name} as location_name
        from shipping_options o
        join ${from(z)} on ${z.id} = o.service_zone_id and ${z.deleted_at} is null
        join ${from(fs)} on ${fs.id} = ${z.fulfillment_set_id} and ${fs.deleted_at} is null
        join ${from(sl)} on ${sl.id} = ${fs.location_id} and ${sl.deleted_at} is null
        left join ${from(region)} on ${region.id} = o.region_id
        where o.deleted_at is null
          and o.shipping_profile_id in (${sql.join(
            f.profile_ids.map((p) => sql`${p}`),
            sql`, `,
          )})
          and (o.region_id is null or o.region_id = ${f.region_id})
          ${channel}
          and ${zoneServes(f)}
          and not exists (select 1 from ${from(ru)} where ${ru.shipping_option_id} = o.id
            and ${ru.attribute} = 'enabled_in_store' and ${ru.operator} = 'eq' and ${ru.value} = '"false"')
          and ${f.is_return ? sql`` : sql`not`} exists (select 1 from ${from(ru)} where ${ru.shipping_option_id} = o.id
            and ${ru.attribute} = 'is_return' and ${ru.operator} = 'eq' and ${ru.value} = '"true"')
        order by o.id`,
  );
  return found;
}

/**
 * The shipping profiles a cart's items need (a product without one: the default profile); an
 * empty cart is shown the default profile's options, as before profiles existed.
 */
export async function cartProfileIds(db: Executor, cartId: string): Promise<string[]> {
  const found = await rows<{ id: string }>(
    db,
    sql`select distinct coalesce(${prod.shipping_profile_id}, 'sp_default') as id
        from ${from(l)} join ${from(prod)} on ${prod.id} = ${l.product_id}
        where ${l.cart_id} = ${cartId} order by 1`,
  );
  return found.length ? found.map((r) => r.id) : ['sp_default'];
}

/**
 * The shipping profiles of these products (one without: the default profile), plus the default
 * one when a line has no product (an order's custom line): what an order's items need.
 */
export async function productProfileIds(db: Executor, productIds: (string | null)[]): Promise<string[]> {
  const ids = [...new Set(productIds.filter((id): id is string => !!id))];
  const found = ids.length
    ? await rows<{ id: string }>(
        db,
        sql`select distinct coalesce(${prod.shipping_profile_id}, 'sp_default') as id
            from ${from(prod)} where ${prod.id} in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )}) order by 1`,
      )
    : [];
  const profiles = new Set(found.map((r) => r.id));
  if (!ids.length || productIds.some((id) => !id)) profiles.add('sp_default');
  return [...profiles];
}
