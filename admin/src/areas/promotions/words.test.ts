import { describe, expect, it } from 'vitest';
import {
  ITEM_ATTRIBUTES,
  draftOf,
  idsBySource,
  promotionText,
  ruleBody,
  ruleText,
  valueText,
  type MethodLike,
} from './words.ts';

const labels = { cusgroup_vip: 'VIP', cusgroup_trade: 'Trade', pcol_summer: 'Summer', prod_shirt: 'Shirt' };
const eur = (n: number) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' }).format(n);

const method = (over: Partial<MethodLike> = {}): MethodLike => ({
  type: 'percentage',
  value: 10,
  currency_code: null,
  target_type: 'items',
  allocation: 'each',
  max_quantity: 100,
  target_rules: [],
  buy_rules: [],
  ...over,
});

describe('promotion rules in words', () => {
  it('names the things a rule points at, its operator and its amounts in the currency', () => {
    expect(
      ruleText(
        { attribute: 'customer.groups.id', operator: 'in', values: ['cusgroup_vip', 'cusgroup_trade'] },
        labels,
        'eur',
      ),
    ).toBe('Customer group is VIP or Trade');
    expect(ruleText({ attribute: 'item_total', operator: 'gte', values: [{ value: '5000' }] }, labels, 'eur')).toBe(
      `Item total is at least ${eur(50)}`,
    );
    expect(
      ruleText({ attribute: 'shipping_address.country_code', operator: 'ne', values: ['de', 'at'] }, labels, null),
    ).toBe('Shipping country is none of DE and AT');
    // An id the panel has no name for still shows, as the id.
    const gone = { attribute: 'items.product.id', operator: 'in', values: 'prod_gone' };
    expect(ruleText(gone, labels, null, { defs: ITEM_ATTRIBUTES })).toBe('Product is prod_gone');
    expect(ruleText(gone, labels, null)).toBe('Product in the cart is prod_gone');
  });

  it('says a whole promotion in one sentence, standard and buy X get Y', () => {
    expect(
      promotionText(
        {
          type: 'standard',
          application_method: method({
            target_rules: [{ attribute: 'items.product.collection_id', operator: 'in', values: ['pcol_summer'] }],
          }),
          rules: [{ attribute: 'item_total', operator: 'gte', values: ['5000'] }],
        },
        labels,
      ),
    ).toBe(
      `10 % off items where collection is Summer, each, up to 100 units a line, when item total is at least ${eur(50)}.`,
    );
    expect(
      promotionText(
        {
          type: 'buyget',
          application_method: method({
            value: 100,
            max_quantity: 1,
            apply_to_quantity: 1,
            buy_rules_min_quantity: 2,
            buy_rules: [{ attribute: 'items.product.id', operator: 'in', values: ['prod_shirt'] }],
            target_rules: [{ attribute: 'items.product.collection_id', operator: 'in', values: ['pcol_summer'] }],
          }),
          rules: [{ attribute: 'customer.groups.id', operator: 'in', values: ['cusgroup_vip'] }],
        },
        labels,
      ),
    ).toBe(
      'Buy 2 items where product is Shirt, get 1 item where collection is Summer at 100 % off, when customer group is VIP.',
    );
    expect(valueText(method({ type: 'fixed', value: 500, currency_code: 'eur', target_type: 'order' }))).toBe(
      `${eur(5)} off the order`,
    );
  });

  it('turns the form’s rows into API rules and back, amounts in minor units', () => {
    const total = draftOf({ attribute: 'item_total', operator: 'gte', values: [{ value: '5000' }] }, 'eur');
    expect(total.text).toBe('50.00');
    expect(ruleBody({ ...total, text: '49,90' }, 'eur')).toEqual({
      attribute: 'item_total',
      operator: 'gte',
      values: ['4990'],
    });
    expect(ruleBody({ ...total, text: 'fifty' }, 'eur')).toEqual({ error: 'Item total: an amount, e.g. 50.00' });
    expect(ruleBody({ attribute: 'currency_code', operator: 'in', values: [], text: 'EUR, usd' }, 'eur')).toEqual({
      attribute: 'currency_code',
      operator: 'in',
      values: ['eur', 'usd'],
    });
    expect(ruleBody({ attribute: 'customer.groups.id', operator: 'in', values: [], text: '' }, 'eur')).toEqual({
      error: 'Customer group: pick at least one value',
    });
  });
});

describe('the ids rules point at', () => {
  it('groups them by the list they name, once each, leaving text and amounts out', () => {
    expect(
      idsBySource([
        { attribute: 'customer.groups.id', operator: 'in', values: ['cusgroup_vip', 'cusgroup_trade'] },
        { attribute: 'items.product.id', operator: 'in', values: [{ value: 'prod_b' }, { value: 'prod_a' }] },
        { attribute: 'items.product.id', operator: 'ne', values: 'prod_a' },
        { attribute: 'item_total', operator: 'gte', values: ['5000'] },
        { attribute: 'shipping_address.country_code', operator: 'in', values: ['de'] },
      ]),
    ).toEqual({ groups: ['cusgroup_trade', 'cusgroup_vip'], products: ['prod_a', 'prod_b'] });
  });
});
