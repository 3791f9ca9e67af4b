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

const symbolOf = (code: string, display: 'symbol' | 'narrowSymbol') =>
  new Intl.NumberFormat('en', { style: 'currency', currency: code, currencyDisplay: display })
    .formatToParts(0)
    .find((p) => p.type === 'currency')?.value ?? code.toUpperCase();

/**
 * Every ISO 4217 currency the runtime knows (ICU, through Intl: no table of our own to keep),
 * with the minor-unit digits our amounts use (money/currencies.ts). Lower-case codes. Built on
 * first use, not when the app's code loads: about 600 Intl formatters, a quarter of evaluating the
 * app's modules, which a start on PGlite does on the thread that opens the database (a --cpu-prof of a start).
 */
let table: { list: readonly Currency[]; byCode: Map<string, Currency> } | undefined;
const built = () => {
  if (table) return table;
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  const list = Intl.supportedValuesOf('currency').map((upper) => ({
    code: upper.toLowerCase(),
    name: names.of(upper) ?? upper,
    symbol: symbolOf(upper, 'symbol'),
    symbol_native: symbolOf(upper, 'narrowSymbol'),
    decimal_digits: exponentOf(upper),
    rounding: 0,
  }));
  table = { list, byCode: new Map(list.map((c) => [c.code, c])) };
  return table;
};

export const currencies = (): readonly Currency[] => built().list;

export const currencyOf = (code: string): Currency | undefined => built().byCode.get(code.toLowerCase());
