import { describe, expect, it } from 'vitest';
import { dec } from './charge-totals.ts';
import { cartTotals, num } from './cart-totals.ts';
import { computeAdjustments, type PromotionInput } from '../promotions/compute.ts';

const vat19 = [{ rate: 19 }];
const plain = (n: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(n).map(([k, v]) => [k, typeof v === 'object' && v && 'toNumber' in v ? num(v as never) : v]),
  );

describe('totals as Medusa computes them', () => {
  it('adds tax on a tax-exclusive line', () => {
    const t = cartTotals(
      [{ unit_price: 1000, quantity: 2, is_tax_inclusive: false, tax_lines: vat19, adjustments: [] }],
      [{ amount: 500, is_tax_inclusive: false, tax_lines: vat19, adjustments: [] }],
    );
    expect(num(t.item_subtotal)).toBe(2000);
    expect(num(t.item_tax_total)).toBe(380);
    expect(num(t.item_total)).toBe(2380);
    expect(num(t.shipping_tax_total)).toBe(95);
    expect(num(t.subtotal)).toBe(2500);
    expect(num(t.total)).toBe(2975);
    expect(num(t.original_total)).toBe(2975);
  });

  it('takes the tax out of a tax-inclusive price, unrounded', () => {
    const t = cartTotals(
      [{ unit_price: 1999, quantity: 1, is_tax_inclusive: true, tax_lines: vat19, adjustments: [] }],
      [],
    );
    expect(t.item_subtotal.toFixed(10)).toBe(dec(1999).div(1.19).toFixed(10));
    expect(num(t.item_total)).toBeCloseTo(1999, 9);
    expect(num(t.original_total)).toBe(1999);
  });

  it('stores a percentage of a tax-inclusive line without tax; its discount_total adds the tax (Medusa 2.21)', () => {
    const line = { unit_price: 1190, quantity: 1, is_tax_inclusive: true, tax_lines: vat19 };
    const promo: PromotionInput = {
      id: 'promo_1',
      code: 'TEN',
      type: 'standard',
      rules: [],
      application_method: {
        type: 'percentage',
        target_type: 'items',
        allocation: 'each',
        value: 10,
        max_quantity: null,
        apply_to_quantity: null,
        buy_rules_min_quantity: null,
        target_rules: [],
        buy_rules: [],
      },
      budget: null,
    };
    const before = cartTotals([{ ...line, adjustments: [] }], []);
    const { adjustments } = computeAdjustments([promo], {
      items: [{ id: 'l1', subtotal: before.items[0].subtotal, quantity: 1 }],
      shipping_methods: [],
    });
    expect(num(adjustments[0].amount)).toBe(100);
    const t = cartTotals([{ ...line, adjustments: [{ amount: adjustments[0].amount }] }], []);
    expect(
      plain({ s: t.subtotal, d: t.discount_total, ds: t.discount_subtotal, tax: t.tax_total, total: t.total }),
    ).toEqual({ s: 1000, d: 119, ds: 100, tax: 171, total: 1071 });
  });

  it('splits a fixed amount across lines in proportion, never beyond a line', () => {
    const promo: PromotionInput = {
      id: 'p',
      code: 'FIVE',
      type: 'standard',
      rules: [],
      application_method: {
        type: 'fixed',
        target_type: 'order',
        allocation: null,
        value: 500,
        max_quantity: null,
        apply_to_quantity: null,
        buy_rules_min_quantity: null,
        target_rules: [],
        buy_rules: [],
      },
      budget: null,
    };
    const { adjustments } = computeAdjustments([promo], {
      items: [
        { id: 'a', subtotal: dec(3000), quantity: 1 },
        { id: 'b', subtotal: dec(1000), quantity: 2 },
      ],
      shipping_methods: [],
    });
    expect(adjustments.map((a) => [a.target_id, num(a.amount)])).toEqual([
      ['a', 375],
      ['b', 125],
    ]);
  });

  it('gives the cheapest target free in a buy 2 get 1', () => {
    const promo: PromotionInput = {
      id: 'p',
      code: 'B2G1',
      type: 'buyget',
      rules: [],
      application_method: {
        type: 'percentage',
        target_type: 'items',
        allocation: 'each',
        value: 100,
        max_quantity: 1,
        apply_to_quantity: 1,
        buy_rules_min_quantity: 2,
        target_rules: [],
        buy_rules: [],
      },
      budget: null,
    };
    const { adjustments } = computeAdjustments([promo], {
      items: [
        { id: 'a', subtotal: dec(3000), quantity: 2 },
        { id: 'b', subtotal: dec(1000), quantity: 1 },
      ],
      shipping_methods: [],
    });
    expect(adjustments.map((a) => [a.target_id, num(a.amount)])).toEqual([['b', 1000]]);
  });

  it('refuses what would exceed a campaign budget', () => {
    const promo = {
      id: 'p',
      code: 'LAST',
      type: 'standard' as const,
      rules: [],
      application_method: {
        type: 'fixed' as const,
        target_type: 'items' as const,
        allocation: 'each' as const,
        value: 100,
        max_quantity: null,
        apply_to_quantity: null,
        buy_rules_min_quantity: null,
        target_rules: [],
        buy_rules: [],
      },
      budget: { type: 'usage' as const, limit: 10, used: 10 },
    };
    const r = computeAdjustments([promo], {
      items: [{ id: 'a', subtotal: dec(300), quantity: 1 }],
      shipping_methods: [],
    });
    expect(r).toEqual({ adjustments: [], exceeded: ['LAST'] });
  });
});
