import { toMajorText } from '../../platform/money/convert.ts';
import { exponentOf } from '../../platform/money/currencies.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';

/**
 * Turns stored store documents (store-documents.ts) plus the live values read beside them into
 * the response text, by string concatenation only: no JSON is parsed or built per product. The
 * text is exactly what the full SQL builder (product-json.ts) would write for the same rows,
 * without whitespace between tokens (documents are stored compacted, compact-json.ts);
 * products-store-documents.test.ts holds the two side by side.
 */

/**
 * One product of a read: its document's head and variant pieces (three per variant, joined by
 * U+0001) and, per variant in the document's order, the live values joined by U+0002
 * (`stock, updated_at[, "<price id> <amount>"]`, empty for none), variants joined by U+0001.
 */
export interface DocumentRow {
  head: string;
  variant_parts: string | null;
  live: string | null;
}

export interface PriceContext {
  taxInclusive: boolean;
}

/** The amount's text in the request's units: stored minor units, or whole units (exact, as PostgreSQL's trim_scale writes them). */
function amountIn(minorText: string, currency: string, units: AmountUnits): string {
  return units === 'minor' ? minorText : toMajorText(Number(minorText), exponentOf(currency));
}

// The prices of a variant piece as stored (compacted), in minor units.
const PRICE_AMOUNT = /"currency_code":"([a-z]{3})","amount":(-?\d+)/g;

/** A variant's stored piece with its prices' amounts in `units`. */
function piecesIn(piece: string, units: AmountUnits): string {
  if (units === 'minor') return piece;
  return piece.replace(
    PRICE_AMOUNT,
    (_, currency: string, amount: string) =>
      `"currency_code":"${currency}","amount":${amountIn(amount, currency, units)}`,
  );
}

/** `calculated_price` as product-json.ts CALCULATED_PRICE writes it, compacted. */
function calculatedPrice(price: string | null | undefined, currency: string, tax: string, units: AmountUnits) {
  if (price == null) return 'null';
  const [id, minor] = price.split(' ');
  const amount = amountIn(minor, currency, units);
  const ref = `{"id":${JSON.stringify(id)},"price_list_id":null,"price_list_type":null,"min_quantity":null,"max_quantity":null}`;
  const raw = `{"value":"${amount}","precision":20}`;
  return (
    `{"id":${JSON.stringify(id)},"calculated_amount":${amount},"original_amount":${amount},` +
    `"currency_code":${JSON.stringify(currency)},` +
    `"calculated_amount_with_tax":${amount},"calculated_amount_without_tax":${amount},` +
    `"original_amount_with_tax":${amount},"original_amount_without_tax":${amount},` +
    `"is_calculated_price_price_list":false,` +
    `"is_calculated_price_tax_inclusive":${tax},"is_original_price_price_list":false,` +
    `"is_original_price_tax_inclusive":${tax},"raw_calculated_amount":${raw},"raw_original_amount":${raw},` +
    `"calculated_price":${ref},"original_price":${ref}}`
  );
}

/** The items of a per-variant text joined by U+0001 (store-queries.ts, STORE_DOCUMENT_COLUMNS); none for empty. */
export const splitVariants = (joined: string | null): string[] => (joined ? joined.split('\u0001') : []);

/** The product's JSON text; `price` (with its currency) adds each variant's `calculated_price`. */
export function assembleProduct(
  row: DocumentRow,
  price?: PriceContext & { currency: string },
  units: AmountUnits = 'minor',
): string {
  const parts = splitVariants(row.variant_parts);
  const live = splitVariants(row.live);
  let out = row.head;
  for (let i = 0; i * 3 < parts.length; i++) {
    if (i) out += ',';
    out += assembleVariant(parts, i, live[i], price, units);
  }
  return `${out}]}`;
}

/**
 * The JSON text of the document's variant at `index` (from 0) of its pieces `parts`, with its
 * live values `live` (`stock, updated_at[, price]` joined by U+0002): the same text as in its
 * product's.
 */
export function assembleVariant(
  parts: string[],
  index: number,
  live: string | undefined,
  price?: PriceContext & { currency: string },
  units: AmountUnits = 'minor',
): string {
  const [stock, updated, priced] = (live ?? '').split('\u0002').map((v) => v || null);
  let out = `${parts[3 * index]}${stock ?? 'null'}${parts[3 * index + 1]}${updated == null ? 'null' : `"${updated}"`}${piecesIn(parts[3 * index + 2], units)}`;
  if (price) out += `,"calculated_price":${calculatedPrice(priced, price.currency, String(price.taxInclusive), units)}`;
  return `${out}}`;
}
