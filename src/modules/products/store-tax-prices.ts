import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import { preparedRows } from '../../platform/db/prepared.ts';
import { from, type RowOf, selectList, tableAs } from '../../platform/db/typed-sql.ts';
import { regions } from '../regions/tables.ts';
import { newCartFacts } from '../cart-pricing/facts.ts';
import { systemTaxLines } from '../taxes/select-rates.ts';
import { dec, sum } from '../totals/charge-totals.ts';

/**
 * `calculated_amount_with_tax` / `calculated_amount_without_tax` (and `original_*`) of the store's
 * `calculated_price` for a shopper in `country_code` (and `province`), as Medusa 2.21 adds them
 * when the request names a country and the region taxes automatically: the rates of that address
 * for each variant's product and type, on the amount with or without its tax as its preference
 * says. Without a country the four amounts stay equal to the calculated and original amounts.
 * Works on the answer's JSON text after the cache (the cache keeps the untaxed answer).
 */

// biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read field by field
type Json = any;

const r = tableAs(regions, 'r');
const regionFields = { currency_code: r.currency_code, automatic_taxes: r.automatic_taxes };

interface Place {
  region_id: string;
  country_code: string;
  province?: string;
}

function amounts(amount: number, rates: number[], inclusive: boolean) {
  const r = sum(rates.map((x) => dec(x))).div(100);
  const taxable = inclusive ? dec(amount).div(r.plus(1)) : dec(amount);
  const tax = taxable.times(r);
  return inclusive
    ? { with: amount, without: dec(amount).minus(tax).toNumber() }
    : { with: tax.plus(amount).toNumber(), without: amount };
}

export async function withTaxAmounts(ctx: Ctx, body: string | Buffer, place: Place): Promise<string | Buffer> {
  const [region] = await preparedRows<RowOf<typeof regionFields>>(
    ctx.db,
    sql`select ${selectList(regionFields)} from ${from(r)} where ${r.id} = ${place.region_id} and ${r.deleted_at} is null`,
  );
  if (!region?.automatic_taxes) return body;
  const json = JSON.parse(body.toString());
  const products: Json[] = json.products ?? (json.product ? [json.product] : []);
  if (!products.length) return body;
  const facts = await newCartFacts(
    ctx.db,
    {
      id: '',
      currency_code: region.currency_code,
      region_id: place.region_id,
      customer_id: null,
      shipping_address: { country_code: place.country_code.toLowerCase(), province: place.province ?? null },
    },
    products.map((p) => p.id),
  );
  const types = new Map(facts.products.map((p) => [p.id, p.type_id]));
  for (const p of products)
    for (const v of p.variants ?? []) {
      const c = v.calculated_price;
      if (!c) continue;
      const rates = systemTaxLines(
        { kind: 'item', id: v.id, product_id: p.id, product_type_id: types.get(p.id) ?? null },
        facts.tax_rates,
      ).map((l) => l.rate);
      const calc = amounts(c.calculated_amount, rates, c.is_calculated_price_tax_inclusive);
      const orig = amounts(c.original_amount, rates, c.is_original_price_tax_inclusive);
      c.calculated_amount_with_tax = calc.with;
      c.calculated_amount_without_tax = calc.without;
      c.original_amount_with_tax = orig.with;
      c.original_amount_without_tax = orig.without;
    }
  return JSON.stringify(json);
}
