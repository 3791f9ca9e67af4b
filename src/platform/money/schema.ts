import { Type, type TNumberOptions } from 'typebox';

export type AmountUnits = 'minor' | 'major';

/**
 * A money amount in a request or response schema. Declared once here, converted in one place
 * (hooks.ts): integers in the currency's minor unit by default (1999 = €19.99), Medusa v2's
 * whole units under AMOUNT_UNITS=major (19.99). The currency is the `currency_code` of the
 * nearest enclosing object, or the route's `moneyCurrency` for bodies that carry none.
 */
export const Money = (opts: TNumberOptions = {}) =>
  Type.Number({
    description: 'minor units (integer) by default; whole units when AMOUNT_UNITS=major',
    ...opts,
    'x-money': true,
  });

export const isMoneySchema = (s: unknown): boolean =>
  typeof s === 'object' &&
  s !== null &&
  ((s as Record<string, unknown>)['x-money'] === true ||
    ((s as { anyOf?: unknown[] }).anyOf ?? []).some((x) => (x as Record<string, unknown>)['x-money'] === true));
