import { type Ctx, executor, inTx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { currencyInclusion, keepCurrencyPreferences } from '../taxes/preferences.ts';
import { type Currency, currencyOf } from './currencies.ts';
import * as q from './queries.ts';
import type { StoreCurrency } from './tables.ts';

export interface StoreView extends Omit<q.StoreRow, 'singleton' | 'supported_currencies'> {
  supported_currencies: (StoreCurrency & {
    id: string;
    store_id: string;
    currency: Currency;
    created_at: Date;
    updated_at: Date;
    deleted_at: null;
  })[];
}

export interface StorePatch {
  name?: string;
  supported_currencies?: { currency_code: string; is_default?: boolean; is_tax_inclusive?: boolean }[];
  default_sales_channel_id?: string | null;
  default_region_id?: string | null;
  default_location_id?: string | null;
  metadata?: Record<string, unknown> | null;
}

/**
 * The store as Medusa answers it. A currency's `is_tax_inclusive` is its price preference's (the
 * one the prices read; false without one), so a change through `/admin/price-preferences` shows
 * here too, as Medusa's admin reads it from the preferences.
 */
async function view(ctx: Ctx, row: q.StoreRow): Promise<StoreView> {
  const { singleton: _one, supported_currencies, ...rest } = row;
  const inclusive = await currencyInclusion(
    ctx,
    supported_currencies.map((c) => c.currency_code),
  );
  return {
    ...rest,
    supported_currencies: supported_currencies.map((c) => ({
      ...c,
      is_tax_inclusive: inclusive.get(c.currency_code) ?? false,
      id: `stocur_${c.currency_code}`,
      store_id: row.id,
      currency: currencyOf(c.currency_code)!,
      created_at: row.created_at,
      updated_at: row.updated_at,
      deleted_at: null,
    })),
  };
}

/** The store, made on the first read: EUR as its currency, the first sales channel as its default. */
async function ensureStore(ctx: Ctx): Promise<q.StoreRow> {
  const found = await q.findStore(executor(ctx));
  if (found) return found;
  const now = ctx.clock.now();
  await q.insertStoreIfMissing(ctx.db, {
    id: newId('store'),
    name: 'Emporium Store',
    supported_currencies: [{ currency_code: 'eur', is_default: true, is_tax_inclusive: false }],
    default_sales_channel_id: await q.firstSalesChannelId(ctx.db),
    created_at: now,
    updated_at: now,
  });
  return (await q.findStore(ctx.db))!;
}

export async function listStores(ctx: Ctx): Promise<StoreView[]> {
  return [await view(ctx, await ensureStore(ctx))];
}

export async function getStore(ctx: Ctx, id: string): Promise<StoreView> {
  const row = await ensureStore(ctx);
  if (row.id !== id) throw errors.notFound('store_not_found', { id });
  return view(ctx, row);
}

/** Known codes, once each, exactly one default (the first when none is marked). */
function validCurrencies(list: NonNullable<StorePatch['supported_currencies']>): StoreCurrency[] {
  if (!list.length) throw errors.invalid('store_currency_required');
  const codes = list.map((c) => c.currency_code.toLowerCase());
  const unknown = codes.filter((c) => !currencyOf(c));
  if (unknown.length) throw errors.invalid('currency_unknown', { codes: unknown.join(', ') });
  if (new Set(codes).size !== codes.length) throw errors.invalid('store_currency_repeated');
  const defaults = list.filter((c) => c.is_default).length;
  if (defaults > 1) throw errors.invalid('store_default_currency_repeated');
  return list.map((c, i) => ({
    currency_code: codes[i],
    is_default: defaults ? !!c.is_default : i === 0,
    is_tax_inclusive: !!c.is_tax_inclusive,
  }));
}

export async function updateStore(ctx: Ctx, id: string, patch: StorePatch): Promise<StoreView> {
  const current = await ensureStore(ctx);
  if (current.id !== id) throw errors.notFound('store_not_found', { id });
  if (patch.default_region_id && !(await q.liveRowExists(ctx.db, 'regions', patch.default_region_id)))
    throw errors.invalid('region_reference_missing', { id: patch.default_region_id });
  if (
    patch.default_sales_channel_id &&
    !(await q.liveRowExists(ctx.db, 'sales_channels', patch.default_sales_channel_id))
  )
    throw errors.invalid('sales_channel_reference_missing', { id: patch.default_sales_channel_id });
  const { supported_currencies, ...rest } = patch;
  const currencies = supported_currencies && validCurrencies(supported_currencies);
  const row = await inTx(ctx, async (tctx) => {
    const updated = await q.updateStoreRow(tctx.tx, id, {
      ...rest,
      ...(currencies && { supported_currencies: currencies }),
      updated_at: ctx.clock.now(),
    });
    // Medusa's updateStoresWorkflow: the currencies' price preferences follow, in the same write.
    if (supported_currencies)
      await keepCurrencyPreferences(
        tctx,
        supported_currencies.map((c, i) => ({
          currency_code: currencies![i].currency_code,
          is_tax_inclusive: c.is_tax_inclusive,
        })),
      );
    return updated!;
  });
  return view(ctx, row);
}
