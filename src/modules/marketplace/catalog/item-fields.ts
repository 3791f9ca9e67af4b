import { errors } from '../../../platform/http/errors.ts';

export const MAX_PRICE_EUR = 100_000;
export const MAX_DESCRIPTION = 10_000;

/** Euros (number, or text from a multipart field) to integer cents; at most two decimals. */
export function priceCents(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text))
    throw errors.invalid(
      `Invalid request: Field 'price_eur' must be a non-negative amount in euros with at most two decimals`,
    );
  const [whole, frac = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  if (cents > MAX_PRICE_EUR * 100)
    throw errors.invalid(`Invalid request: Field 'price_eur' must be at most ${MAX_PRICE_EUR}`);
  return cents;
}

/** An absolute http(s) URL, or null to clear it. */
export function changelogUrl(value: string | null): string | null {
  if (value === null || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw errors.invalid(`Invalid request: Field 'changelog_url' must be an absolute http(s) URL`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || value.length > 2000) {
    throw errors.invalid(`Invalid request: Field 'changelog_url' must be an absolute http(s) URL`);
  }
  return value;
}

export function description(value: string): string {
  if (value.length > MAX_DESCRIPTION)
    throw errors.invalid(`Invalid request: Field 'description' must be at most ${MAX_DESCRIPTION} characters`);
  return value;
}
