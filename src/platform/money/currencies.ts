/**
 * Decimal places of each currency's minor unit (ISO 4217). Every code not listed has 2. The
 * SQL form is generated from the same table, so the catalog's JSON and the API's hooks agree.
 */
const NOT_TWO: Record<string, number> = {
  bif: 0,
  clp: 0,
  djf: 0,
  gnf: 0,
  isk: 0,
  jpy: 0,
  kmf: 0,
  krw: 0,
  pyg: 0,
  rwf: 0,
  ugx: 0,
  uyi: 0,
  vnd: 0,
  vuv: 0,
  xaf: 0,
  xof: 0,
  xpf: 0,
  bhd: 3,
  iqd: 3,
  jod: 3,
  kwd: 3,
  lyd: 3,
  omr: 3,
  tnd: 3,
  clf: 4,
  uyw: 4,
};

/** Decimal places of `code`'s minor unit: 2 for EUR and USD, 0 for JPY, 3 for KWD. */
export function exponentOf(code: string): number {
  return NOT_TWO[code.toLowerCase()] ?? 2;
}

/** `10 ^ exponent` of the currency in column `col` as a SQL numeric expression (codes are stored lower-case). */
export function scaleSql(col: string): string {
  const groups = new Map<number, string[]>();
  for (const [code, exp] of Object.entries(NOT_TWO)) groups.set(exp, [...(groups.get(exp) ?? []), `'${code}'`]);
  const whens = [...groups].map(([exp, codes]) => `when ${col} in (${codes.join(',')}) then ${10 ** exp}`).join(' ');
  return `(case ${whens} else 100 end)::numeric`;
}
