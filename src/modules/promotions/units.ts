import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { toMinor } from '../../platform/money/convert.ts';
import { exponentOf } from '../../platform/money/currencies.ts';

/**
 * A fixed promotion's value and a spend budget are money of a currency the body names itself,
 * beside a percentage that is not money: so they are converted here, not by the route's money
 * plan. Stored in minor units; written in the request's AMOUNT_UNITS.
 */
export function amountIn(ctx: Ctx, value: number, currency: string | null | undefined, field: string): number {
  if (!currency)
    throw errors.invalid('promotion_amount_currency_required', {
      field: field.replace(/\.value$|\.limit$/, '.currency_code'),
    });
  if (ctx.amountUnits === 'major') return toMinor(value, exponentOf(currency), currency, field);
  if (!Number.isInteger(value)) throw errors.invalid('invalid_amount', { field });
  return value;
}

export function amountOut(ctx: Ctx, minor: number, currency: string | null): number {
  if (!currency || ctx.amountUnits !== 'major') return minor;
  return minor / 10 ** exponentOf(currency);
}
