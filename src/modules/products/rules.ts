import { randomInt } from 'node:crypto';
import { isUniqueViolation, pgError } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import { isCurrencyCode } from '../regions/iso-codes.ts';

/** Business checks that need no database: handles, currencies, SKUs, option values. */

const HANDLE_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MAX_HANDLE_LENGTH = 255;

/**
 * Medusa's rule: lower-case, ß → ss, keep letters, digits, spaces, `_` and `-`, then spaces and
 * `_` become `-`, runs of dashes collapse and edge dashes go. Nothing left → `product-<6 random>`.
 */
export function handleFromTitle(title: string): string {
  const handle = title
    .toLowerCase()
    .replace(/\u00df/g, 'ss') // ß, escaped: the compiled server is then pure ASCII (platform/code-cache.ts)
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  // A handle someone types is at most 255 characters (the schema); one made from a long title is
  // cut there too (a 1,000-letter title in a non-Latin script is ~3,000 bytes, past what the
  // handle's index can hold).
  const cut = [...handle].slice(0, MAX_HANDLE_LENGTH).join('').replace(/-$/, '');
  if (cut) return cut;
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += HANDLE_ALPHABET[randomInt(HANDLE_ALPHABET.length)];
  return `product-${suffix}`;
}

export const handleTaken = (handle: string) => errors.invalid('product_handle_taken', { handle });
export const skuTaken = (sku: string) => errors.invalid('variant_sku_taken', { sku });

export function assertPrices(
  variantTitle: string,
  prices: { currency_code: string; min_quantity?: number | null; max_quantity?: number | null }[],
): void {
  const seen = new Set<string>();
  for (const { currency_code, min_quantity: min = null, max_quantity: max = null } of prices) {
    // The schema already forces three lower-case letters; this rejects codes ISO 4217 does not know.
    if (!isCurrencyCode(currency_code)) throw errors.invalid('price_currency_invalid', { currency: currency_code });
    if (min != null && max != null && max < min)
      throw errors.invalid('price_range_inverted', { variant: variantTitle });
    // One price per currency and quantity range (the range-less one is the catalog's price).
    const key = `${currency_code} ${min} ${max}`;
    if (seen.has(key)) throw errors.invalid('price_repeated', { variant: variantTitle, currency: currency_code });
    seen.add(key);
  }
}

export function assertUniqueSkus(skus: (string | null | undefined)[]): void {
  const seen = new Set<string>();
  for (const sku of skus) {
    if (sku == null) continue;
    if (seen.has(sku)) throw skuTaken(sku);
    seen.add(sku);
  }
}

export function assertOptionsWellFormed(options: { title: string; values: string[] }[]): void {
  const titles = new Set<string>();
  for (const o of options) {
    if (titles.has(o.title)) throw errors.invalid('option_repeated', { option: o.title });
    titles.add(o.title);
    if (new Set(o.values).size !== o.values.length) throw errors.invalid('option_value_repeated', { option: o.title });
  }
}

/** A variant's `{ <option title>: <value> }` must name declared options and one of their values. */
export function assertVariantOptions(
  variantTitle: string,
  chosen: Record<string, string> | null | undefined,
  declared: { title: string; values: string[] }[],
): void {
  for (const [title, value] of Object.entries(chosen ?? {})) {
    const option = declared.find((o) => o.title === title);
    if (!option) throw errors.invalid('variant_option_undeclared', { variant: variantTitle, option: title });
    if (!option.values.includes(value)) {
      throw errors.invalid('variant_option_value_unknown', { variant: variantTitle, value, option: title });
    }
  }
}

/**
 * Postgres unique violations that a race past the checks above can still raise, as 400s. A write
 * of many products does not know which handle raced: the index's detail names it
 * (`Key (handle)=(…) already exists.`).
 */
export function translateUniqueViolation(err: unknown, handle?: string): unknown {
  if (!isUniqueViolation(err)) return err;
  const { constraint, detail } = pgError(err);
  const raced = handle ?? detail?.match(/^Key \(handle\)=\((.*)\) already exists\.$/)?.[1];
  if (constraint === 'products_handle_live_idx' && raced) return handleTaken(raced);
  if (constraint === 'product_variants_sku_live_idx') return errors.invalid('variant_sku_duplicate');
  return err;
}
