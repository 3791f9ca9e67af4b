import { describe, expect, it } from 'vitest';
import { priceForCart } from './pricing.ts';

const eur = (amount: number, rules: { attribute: 'item_total'; operator: 'gte' | 'lt'; value: number }[] = []) => ({
  currency_code: 'eur',
  region_id: null,
  amount,
  rules,
});

describe('priceForCart', () => {
  const prices = [eur(495), eur(0, [{ attribute: 'item_total', operator: 'gte', value: 5000 }])];

  it('applies a conditional price only when its rule holds (free shipping over 50 EUR)', () => {
    expect(priceForCart(prices, { currency_code: 'eur', region_id: 'reg_1', item_total: 4999 })?.amount).toBe(495);
    expect(priceForCart(prices, { currency_code: 'eur', region_id: 'reg_1', item_total: 5000 })?.amount).toBe(0);
    expect(priceForCart(prices, { currency_code: 'EUR', region_id: null, item_total: 9000 })?.amount).toBe(0);
  });

  it('has no price for another currency; a region price wins over the currency price', () => {
    expect(priceForCart(prices, { currency_code: 'usd', region_id: null, item_total: 100 })).toBeUndefined();
    const withRegion = [...prices, { currency_code: 'eur', region_id: 'reg_de', amount: 700, rules: [] }];
    expect(priceForCart(withRegion, { currency_code: 'eur', region_id: 'reg_de', item_total: 100 })?.amount).toBe(700);
    expect(priceForCart(withRegion, { currency_code: 'eur', region_id: 'reg_fr', item_total: 100 })?.amount).toBe(495);
  });
});
