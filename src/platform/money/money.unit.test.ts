import { describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { toMajor, toMinor } from './convert.ts';
import { exponentOf } from './currencies.ts';
import { compilePlan, mapMoney, moneyWithoutCurrency } from './plan.ts';
import { Money } from './schema.ts';

describe('minor ↔ major units', () => {
  it('knows the exponents of EUR, USD, JPY and KWD, case-insensitively', () => {
    expect([exponentOf('eur'), exponentOf('USD'), exponentOf('jpy'), exponentOf('kwd')]).toEqual([2, 2, 0, 3]);
  });

  it('writes minor units as the exact decimal', () => {
    expect(toMajor(1999, 2)).toBe(19.99);
    expect(toMajor(1000, 2)).toBe(10);
    expect(toMajor(5, 2)).toBe(0.05);
    expect(toMajor(-1999, 2)).toBe(-19.99);
    expect(toMajor(1234, 0)).toBe(1234);
    expect(toMajor(1234, 3)).toBe(1.234);
    expect(toMajor(0, 3)).toBe(0);
    // 0.1 + 0.2 style drift never appears: every cent amount of a range round-trips exactly.
    for (let cents = 0; cents < 20_000; cents += 7) expect(toMinor(toMajor(cents, 2), 2, 'eur')).toBe(cents);
  });

  it('reads whole units without float multiplication (19.99 × 100 would be 1998.9999…)', () => {
    expect(19.99 * 100).not.toBe(1999);
    expect(toMinor(19.99, 2, 'eur')).toBe(1999);
    expect(toMinor(10, 2, 'eur')).toBe(1000);
    expect(toMinor(0.07, 2, 'eur')).toBe(7);
    expect(toMinor(1.005, 3, 'kwd')).toBe(1005);
    expect(toMinor(500, 0, 'jpy')).toBe(500);
    expect(toMinor(1e-7 * 1e7, 2, 'eur')).toBe(100);
  });

  it('refuses more decimals than the currency has, and amounts past the safe range', () => {
    expect(() => toMinor(19.999, 2, 'eur')).toThrow(/more decimal places than EUR allows \(2\)/);
    expect(() => toMinor(0.5, 0, 'jpy')).toThrow(/JPY allows \(0\)/);
    expect(() => toMinor(1e-7, 2, 'eur')).toThrow(/more decimal places/);
    expect(() => toMinor(1e20, 2, 'eur')).toThrow(/too large/);
    expect(() => toMinor(Number.NaN, 2, 'eur')).toThrow(/finite/);
  });
});

describe('money plan', () => {
  const Line = Type.Object({ unit_price: Money(), quantity: Type.Integer() });
  const Cart = Type.Object({
    currency_code: Type.String(),
    total: Money(),
    items: Type.Array(Line),
    shipping: Type.Union([Type.Object({ amount: Money() }), Type.Null()]),
    other: Type.Object({ currency_code: Type.String(), amount: Money() }),
  });

  it('converts every marked field with the nearest currency_code, leaving the source untouched', () => {
    const plan = compilePlan(Cart)!;
    const source = {
      currency_code: 'eur',
      total: 1999,
      items: [{ unit_price: 999, quantity: 2 }],
      shipping: { amount: 500 },
      other: { currency_code: 'jpy', amount: 500 },
    };
    const out = mapMoney(source, plan, undefined, (a, c) => toMajor(a, exponentOf(c!)));
    expect(out).toEqual({
      currency_code: 'eur',
      total: 19.99,
      items: [{ unit_price: 9.99, quantity: 2 }],
      shipping: { amount: 5 },
      other: { currency_code: 'jpy', amount: 500 },
    });
    expect(source.total).toBe(1999);
    expect(mapMoney({ ...source, shipping: null }, plan, undefined, (a) => a)).toMatchObject({ shipping: null });
  });

  it('has no plan for schemas without money, and finds money with no currency in scope', () => {
    expect(compilePlan(Type.Object({ id: Type.String(), n: Type.Integer() }))).toBeNull();
    expect(moneyWithoutCurrency(Cart)).toEqual([]);
    expect(moneyWithoutCurrency(Type.Object({ refund: Type.Object({ amount: Money() }) }))).toEqual(['.refund.amount']);
  });
});
