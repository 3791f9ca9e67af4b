import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { CalculatedPrice, Price } from './response-schema.ts';
import { assembleVariant } from './store-assembly.ts';

/** A stored variant's three pieces (store-documents.ts), its prices in minor units as the SQL wrote them. */
const parts = [
  '{"id":"variant_1","inventory_quantity":',
  ',"title":"S","updated_at":',
  ',"deleted_at":null,"prices":[{"id":"price_1","currency_code":"eur","amount":1999,"variant_id":"variant_1","min_quantity":null,"max_quantity":null}]',
];
const live = ['5', '2026-12-07T00:00:00.000Z', 'price_1 1999'].join('\u0002');

describe('store assembly: the price shapes as the response schema writes them', () => {
  it('writes calculated_price and the stored prices in the schema’s keys, in whole units when asked', () => {
    const variant = JSON.parse(assembleVariant(parts, 0, live, { currency: 'eur', taxInclusive: false }, 'major'));
    expect(Object.keys(variant.calculated_price)).toEqual(Object.keys(CalculatedPrice.properties));
    expect(Value.Check(CalculatedPrice, variant.calculated_price)).toBe(true);
    expect(variant.calculated_price.calculated_amount).toBe(19.99);
    expect(variant.calculated_price.raw_calculated_amount).toEqual({ value: '19.99', precision: 20 });
    // The stored prices are converted where `amount` follows `currency_code`, Price's own order.
    expect(Object.keys(Price.properties).slice(1, 3)).toEqual(['currency_code', 'amount']);
    expect(variant.prices).toEqual([
      {
        id: 'price_1',
        currency_code: 'eur',
        amount: 19.99,
        variant_id: 'variant_1',
        min_quantity: null,
        max_quantity: null,
      },
    ]);
    expect(Value.Check(Price, variant.prices[0])).toBe(true);
  });
});
