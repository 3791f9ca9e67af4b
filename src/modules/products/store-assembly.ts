import { toMajorText } from '../../platform/money/convert.ts';
import { exponentOf } from '../../platform/money/currencies.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';
import { jsonTextWriter } from '../../platform/http/schema-json.ts';
import { CalculatedPrice, PriceRef, RawAmount } from './response-schema.ts';
import { type ListPrice, parseListPrice } from '../price-lists/store-prices.ts';

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

// The prices of a variant piece as stored (compacted), in minor units: `Price`'s keys in its order
// (response-schema.ts), where `amount` follows `currency_code`.
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

/** One side (calculated or original) of `calculated_price`: its amount's text and its price reference. */
interface Side {
  amount: string;
  ref: string;
  fromList: boolean;
}

// The price shapes' keys and order are the response schema's (platform/http/schema-json.ts), as the SQL's are.
const writePriceRef = jsonTextWriter(PriceRef);
const writeRawAmount = jsonTextWriter(RawAmount);
const writeCalculatedPrice = jsonTextWriter(CalculatedPrice);

const priceRef = (id: string, list?: ListPrice) =>
  writePriceRef({
    id: JSON.stringify(id),
    price_list_id: list ? JSON.stringify(list.price_list_id) : 'null',
    price_list_type: list ? JSON.stringify(list.price_list_type) : 'null',
    min_quantity: list ? String(list.min_quantity) : 'null',
    max_quantity: list ? String(list.max_quantity) : 'null',
  });

/**
 * `calculated_price` from the variant's own price in the currency (`price`, "<id> <amount>") and
 * the price list price that applies (`listed`, price-lists/store-prices.ts), as Medusa's pricing
 * module picks: a list price is the calculated one; the original stays the variant's own for a
 * sale and is the list price for an override. Without a list price: the same text as
 * product-json.ts CALCULATED_PRICE, compacted.
 */
function calculatedPrice(
  price: string | null | undefined,
  listed: string | null | undefined,
  currency: string,
  tax: string,
  units: AmountUnits,
) {
  const list = parseListPrice(listed);
  if (price == null && !list) return 'null';
  const [baseId, baseMinor] = price ? price.split(' ') : [];
  const base: Side | undefined = price
    ? { amount: amountIn(baseMinor, currency, units), ref: priceRef(baseId), fromList: false }
    : undefined;
  const fromList: Side | undefined = list
    ? { amount: amountIn(String(list.amount), currency, units), ref: priceRef(list.id, list), fromList: true }
    : undefined;
  const calc = (fromList ?? base)!;
  const orig = list?.price_list_type === 'override' || !base ? calc : base;
  const raw = (amount: string) => writeRawAmount({ value: `"${amount}"`, precision: '20' });
  return writeCalculatedPrice({
    id: JSON.stringify(baseId ?? list!.id),
    calculated_amount: calc.amount,
    original_amount: orig.amount,
    calculated_amount_with_tax: calc.amount,
    calculated_amount_without_tax: calc.amount,
    original_amount_with_tax: orig.amount,
    original_amount_without_tax: orig.amount,
    currency_code: JSON.stringify(currency),
    is_calculated_price_price_list: String(calc.fromList),
    is_calculated_price_tax_inclusive: tax,
    is_original_price_price_list: String(orig.fromList),
    is_original_price_tax_inclusive: tax,
    raw_calculated_amount: raw(calc.amount),
    raw_original_amount: raw(orig.amount),
    calculated_price: calc.ref,
    original_price: orig.ref,
  });
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
  const [stock, updated, priced, listed] = (live ?? '').split('\u0002').map((v) => v || null);
  let out = `${parts[3 * index]}${stock ?? 'null'}${parts[3 * index + 1]}${updated == null ? 'null' : `"${updated}"`}${piecesIn(parts[3 * index + 2], units)}`;
  if (price)
    out += `,"calculated_price":${calculatedPrice(priced, listed, price.currency, String(price.taxInclusive), units)}`;
  return `${out}}`;
}
