/**
 * Turns stored store documents (store-documents.ts) plus the live values read beside them into
 * the response text, by string concatenation only: no JSON is parsed or built per product. The
 * text is exactly what the full SQL builder (product-json.ts) would write for the same rows;
 * products-store-documents.test.ts holds the two side by side.
 */

/** One product of a read: its document and, per variant in the document's order, the live values. */
export interface DocumentRow {
  head: string;
  variant_parts: string[];
  stock: (number | null)[] | null;
  updated: (string | null)[] | null;
  /** With a region: the variant's price in the region's currency (id, amount as text), or nulls. */
  price_ids?: (string | null)[] | null;
  amounts?: (string | null)[] | null;
}

export interface PriceContext {
  taxInclusive: boolean;
}

const nullable = (v: string | number | null | undefined) => (v == null ? 'null' : String(v));

/** `calculated_price` as product-json.ts CALCULATED_PRICE writes it (json_build_object's spacing). */
function calculatedPrice(
  id: string | null | undefined,
  amount: string | null | undefined,
  currency: string,
  tax: string,
) {
  if (id == null || amount == null) return 'null';
  const ref = `{"id" : ${JSON.stringify(id)}, "price_list_id" : null, "price_list_type" : null, "min_quantity" : null, "max_quantity" : null}`;
  const raw = `{"value" : "${amount}", "precision" : 20}`;
  return (
    `{"id" : ${JSON.stringify(id)}, "calculated_amount" : ${amount}, "original_amount" : ${amount}, ` +
    `"currency_code" : ${JSON.stringify(currency)}, "is_calculated_price_price_list" : false, ` +
    `"is_calculated_price_tax_inclusive" : ${tax}, "is_original_price_price_list" : false, ` +
    `"is_original_price_tax_inclusive" : ${tax}, "raw_calculated_amount" : ${raw}, "raw_original_amount" : ${raw}, ` +
    `"calculated_price" : ${ref}, "original_price" : ${ref}}`
  );
}

/** The product's JSON text; `price` (with its currency) adds each variant's `calculated_price`. */
export function assembleProduct(row: DocumentRow, price?: PriceContext & { currency: string }): string {
  const parts = row.variant_parts;
  const stock = row.stock ?? [];
  const updated = row.updated ?? [];
  const tax = price ? String(price.taxInclusive) : '';
  let out = row.head;
  for (let i = 0; i * 3 < parts.length; i++) {
    if (i) out += ', ';
    out += `${parts[3 * i]}${nullable(stock[i])}${parts[3 * i + 1]}${updated[i] == null ? 'null' : `"${updated[i]}"`}${parts[3 * i + 2]}`;
    if (price)
      out += `, "calculated_price" : ${calculatedPrice(row.price_ids?.[i], row.amounts?.[i], price.currency, tax)}`;
    out += '}';
  }
  return `${out}]}`;
}
