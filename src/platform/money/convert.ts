import BigNumber from 'bignumber.js';
import { errors } from '../http/errors.ts';

/**
 * Minor units ↔ whole units without binary floating point arithmetic: amounts are moved as
 * decimal digit strings, so 1999 cents is exactly 19.99 and 19.99 is exactly 1999 cents.
 */

/** 1999, 2 → 19.99; 500, 0 → 500. The number is parsed from its decimal text, never multiplied. */
export function toMajor(minor: number, exponent: number): number {
  if (exponent === 0) return minor;
  // Totals with tax are exact decimals of minor units (1680.672268907563 cents): shifted in decimal.
  if (!Number.isInteger(minor)) return new BigNumber(minor).shiftedBy(-exponent).toNumber();
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  return Number(`${minor < 0 ? '-' : ''}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`);
}

/** The same as text ("19.99"), for Medusa's `raw_*` amounts. */
export function toMajorText(minor: number, exponent: number): string {
  return String(toMajor(minor, exponent));
}

/**
 * 19.99, 2 → 1999. The amount's shortest decimal text (what the client wrote, for up to 15
 * significant digits) is shifted by the exponent; more decimals than the currency has is an error.
 */
export function toMinor(major: number, exponent: number, currency: string, field = 'amount'): number {
  if (!Number.isFinite(major)) throw errors.invalid(`${field} must be a finite number`);
  const [mantissa, power = '0'] = String(major).toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [whole, fraction = ''] = (negative ? mantissa.slice(1) : mantissa).split('.');
  const shift = exponent + Number(power) - fraction.length;
  let digits = whole + fraction;
  if (shift >= 0) digits += '0'.repeat(shift);
  else {
    if (!/^0*$/.test(digits.slice(shift))) {
      throw errors.invalid(
        `${field} ${major} has more decimal places than ${currency.toUpperCase()} allows (${exponent})`,
      );
    }
    digits = digits.slice(0, shift) || '0';
  }
  const minor = BigInt(digits);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw errors.invalid(`${field} ${major} is too large`);
  const value = Number(minor);
  return negative && value !== 0 ? -value : value;
}
