import { exponentOf } from '../../platform/money/currencies.ts';

/** Medusa's currency: what the admin shows next to an amount. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  symbol_native: string;
  decimal_digits: number;
  rounding: number;
}

const names = new Intl.DisplayNames(['en'], { type: 'currency' });

const symbolOf = (code: string, display: 'symbol' | 'narrowSymbol') =>
  new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: display })
    .formatToParts(0)
    .find((p) => p.type === 'currency')?.value ?? code.toUpperCase();

/**
 * Every ISO 4217 currency the runtime knows (ICU, through Intl: no table of our own to keep),
 * with the minor-unit digits our amounts use (money/currencies.ts). Built once, lower-case codes.
 */
export const CURRENCIES: readonly Currency[] = Intl.supportedValuesOf('currency').map((upper) => ({
  code: upper.toLowerCase(),
  name: names.of(upper) ?? upper,
  symbol: symbolOf(upper, 'symbol'),
  symbol_native: symbolOf(upper, 'narrowSymbol'),
  decimal_digits: exponentOf(upper),
  rounding: 0,
}));

const BY_CODE = new Map(CURRENCIES.map((c) => [c.code, c]));

export const currencyOf = (code: string): Currency | undefined => BY_CODE.get(code.toLowerCase());
