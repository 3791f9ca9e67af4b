import type { Static } from 'typebox';
import type { TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import type { CreatePriceBody } from './schema.ts';

/** A price list's price as Medusa's admin shows it. */
export type PriceView = Omit<q.PriceRow, 'price_list_id' | 'region_id'> & { deleted_at: null };

export function priceView(row: q.PriceRow): PriceView {
  const { price_list_id: _l, region_id: _r, ...rest } = row;
  return { ...rest, deleted_at: null };
}

type NewPrice = Static<typeof CreatePriceBody>;

export function checkRange(min: number | null | undefined, max: number | null | undefined): void {
  if (min != null && max != null && max < min) {
    throw errors.invalid('price_list_price_range_inverted');
  }
}

/** Medusa's check: every variant priced must exist, or nothing is written. */
export async function requireVariants(tctx: TxCtx, variantIds: string[]): Promise<void> {
  const found = await q.liveVariantIds(tctx.tx, [...new Set(variantIds)]);
  const missing = [...new Set(variantIds)].filter((id) => !found.has(id));
  if (missing.length) throw errors.invalid('price_list_variants_missing', { ids: missing.join(', ') });
}

/** Rows for new prices of list `listId`, after checking their variants and quantity ranges. */
export async function newPriceRows(tctx: TxCtx, listId: string, prices: NewPrice[]): Promise<q.PriceRow[]> {
  await requireVariants(
    tctx,
    prices.map((p) => p.variant_id),
  );
  const now = tctx.clock.now();
  return prices.map((p) => {
    checkRange(p.min_quantity, p.max_quantity);
    const rules = p.rules ?? {};
    return {
      id: newId('price'),
      price_list_id: listId,
      variant_id: p.variant_id,
      currency_code: p.currency_code.toLowerCase(),
      amount: p.amount,
      min_quantity: p.min_quantity ?? null,
      max_quantity: p.max_quantity ?? null,
      region_id: rules.region_id ?? null,
      rules,
      created_at: now,
      updated_at: now,
    };
  });
}
