import { ApiError } from '../../lib/api.ts';
import { fromMinor, toMinor } from '../../lib/format.ts';

/**
 * The Locations & shipping forms' pure logic: a location's address from its fields, a zone's geo
 * zones as two lists an operator types (countries, provinces), and an option's prices as rows
 * (where, amount, an item-total condition).
 */

export const ADDRESS_FIELDS = [
  ['address_1', 'Street and number'],
  ['postal_code', 'Postal code'],
  ['city', 'City'],
  ['country_code', 'Country'],
] as const;
export type AddressKey = (typeof ADDRESS_FIELDS)[number][0];
export type AddressValues = Record<AddressKey, string>;

/** The address the API takes from a location's fields (country in lower case, empty ones null), or none when all are empty. */
export function addressFrom(values: AddressValues): Record<AddressKey, string | null> | undefined {
  if (!ADDRESS_FIELDS.some(([k]) => values[k].trim() !== '')) return undefined;
  return Object.fromEntries(
    ADDRESS_FIELDS.map(([k]) => [k, k === 'country_code' ? values[k].trim().toLowerCase() : values[k].trim() || null]),
  ) as Record<AddressKey, string | null>;
}

export interface GeoIn {
  id?: string;
  type: 'country' | 'province' | 'city' | 'zip';
  country_code: string;
  province_code?: string | null;
  city?: string | null;
  postal_expression?: unknown;
}

const splitList = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** "de, at" and "de-by, de-hh" as the zone shows them back in its fields. */
export function geoLists(geo: GeoIn[]): { countries: string; provinces: string } {
  return {
    countries: geo
      .filter((g) => g.type === 'country')
      .map((g) => g.country_code)
      .join(', '),
    provinces: geo
      .filter((g) => g.type === 'province')
      .map((g) => g.province_code)
      .join(', '),
  };
}

/**
 * The geo zones the two lists mean. A province is written as its ISO 3166-2 code (`de-by`), whose
 * prefix is its country. Cities and postal codes (made through the API) are kept as they are, by
 * id; a country or province already in the zone keeps its id too, so an edit only touches what
 * changed. Throws an error naming the field when an entry cannot be read.
 */
export function geoZonesFrom(countries: string, provinces: string, existing: GeoIn[] = []): GeoIn[] {
  const out: GeoIn[] = [];
  for (const c of new Set(splitList(countries))) {
    if (!/^[a-z]{2}$/.test(c)) throw fieldError('countries', `"${c}" is not a two-letter country code (e.g. de)`);
    const had = existing.find((g) => g.type === 'country' && g.country_code === c);
    out.push({ ...(had?.id ? { id: had.id } : {}), type: 'country', country_code: c });
  }
  for (const p of new Set(splitList(provinces))) {
    const m = /^([a-z]{2})-[a-z0-9]{1,3}$/.exec(p);
    if (!m) throw fieldError('provinces', `"${p}" is not an ISO 3166-2 province code (e.g. de-by)`);
    const had = existing.find((g) => g.type === 'province' && g.province_code === p);
    out.push({ ...(had?.id ? { id: had.id } : {}), type: 'province', country_code: m[1] as string, province_code: p });
  }
  for (const g of existing) {
    if (g.type !== 'city' && g.type !== 'zip') continue;
    out.push({
      id: g.id,
      type: g.type,
      country_code: g.country_code,
      province_code: g.province_code,
      city: g.city,
      ...(g.type === 'zip' ? { postal_expression: g.postal_expression } : {}),
    } as GeoIn);
  }
  return out;
}

/** A form check that names its field, shown beside that field as the API's own errors are. */
function fieldError(field: string, message: string): ApiError {
  return new ApiError(400, 'invalid_data', message, field);
}

export type Operator = '' | 'gt' | 'gte' | 'lt' | 'lte' | 'eq';

/** How a price's condition on the item total reads: the options' table and the form's choices both say it so. */
export const OPERATOR_SIGNS: Record<string, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=' };

/** One price as the form edits it: `where` is `cur:eur` or `reg:<region id>`. */
export interface PriceRow {
  where: string;
  amount: string;
  operator: Operator;
  threshold: string;
}

export interface PriceOut {
  currency_code?: string;
  region_id?: string;
  amount: number;
  rules?: { attribute: 'item_total'; operator: Exclude<Operator, ''>; value: number }[];
}

export interface PriceIn {
  currency_code: string;
  region_id: string | null;
  amount: number;
  price_rules: { attribute: string; operator: string; value: unknown }[];
}

/** The option's prices as rows (one condition per row: the form's; more made through the API are shown as the first). */
export function priceRows(prices: PriceIn[]): PriceRow[] {
  return prices.map((p) => {
    const rule = p.price_rules.find((r) => r.attribute === 'item_total');
    return {
      where: p.region_id ? `reg:${p.region_id}` : `cur:${p.currency_code}`,
      amount: fromMinor(p.amount, p.currency_code),
      operator: (rule?.operator ?? '') as Operator,
      threshold: rule ? fromMinor(Number(rule.value), p.currency_code) : '',
    };
  });
}

/** Rows back to the API's prices; `currencyOf` gives a region's currency (amounts are typed in it). */
export function pricesFrom(rows: PriceRow[], currencyOf: (regionId: string) => string | undefined): PriceOut[] {
  return rows.map((r, i) => {
    const [kind, ref = ''] = r.where.split(':', 2) as [string, string?];
    const currency = kind === 'reg' ? currencyOf(ref) : ref;
    if (!currency) throw fieldError(`prices.${i}.where`, 'Choose a currency or a region');
    const amount = toMinor(r.amount, currency);
    if (amount === null) throw fieldError(`prices.${i}.amount`, `Enter an amount such as 4.95`);
    const out: PriceOut = kind === 'reg' ? { region_id: ref, amount } : { currency_code: currency, amount };
    if (r.operator) {
      const value = toMinor(r.threshold, currency);
      if (value === null) throw fieldError(`prices.${i}.threshold`, 'Enter the item total such as 50.00');
      out.rules = [{ attribute: 'item_total', operator: r.operator, value }];
    }
    return out;
  });
}

/** An option's code from its name, for the `type` Medusa requires on create ("Collect in store" → "collect-in-store"). */
export function codeOf(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'option'
  );
}
