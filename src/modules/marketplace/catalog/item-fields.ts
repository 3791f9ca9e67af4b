import { errors } from '../../../platform/http/errors.ts';
import type { Billing } from './tables.ts';

export const BILLINGS: readonly Billing[] = ['one_time', 'monthly', 'yearly'];

export const MAX_PRICE_EUR = 100_000;
export const MAX_DESCRIPTION = 10_000;

/** Euros (number, or text from a multipart field) to integer cents; at most two decimals. */
export function priceCents(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) throw errors.invalid('marketplace_price_invalid');
  const [whole, frac = ''] = text.split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  if (cents > MAX_PRICE_EUR * 100) throw errors.invalid('marketplace_price_too_high', { max: MAX_PRICE_EUR });
  return cents;
}

/** An absolute http(s) URL, or null to clear it. */
export function changelogUrl(value: string | null): string | null {
  if (value === null || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw errors.invalid('marketplace_changelog_url_invalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || value.length > 2000) {
    throw errors.invalid('marketplace_changelog_url_invalid');
  }
  return value;
}

export function description(value: string): string {
  if (value.length > MAX_DESCRIPTION)
    throw errors.invalid('marketplace_description_too_long', { max: MAX_DESCRIPTION });
  return value;
}

/** `billing` of the publish form or the item's edit. */
export function billing(value: string): Billing {
  const b = value.trim() as Billing;
  if (!BILLINGS.includes(b)) throw errors.invalid('marketplace_billing_invalid');
  return b;
}

/** `rollout_percent` of the publish form: an integer 0–100 (100, everyone, when absent). */
export function rolloutPercent(raw: string): number {
  const n = Number(raw);
  if (!/^\d{1,3}$/.test(raw.trim()) || !Number.isInteger(n) || n < 0 || n > 100)
    throw errors.invalid('marketplace_rollout_percent_invalid');
  return n;
}
