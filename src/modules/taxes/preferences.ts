import { eq, type SQL } from 'drizzle-orm';
import { type Ctx, executor, type TxCtx } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import { pricePreferences } from './tables.ts';

/** Medusa's price preferences: whether the prices of a region, or of a currency, include tax. */

const notFound = (id: string) => errors.notFound('price_preference_not_found', { id });
const taken = (attribute: string, value: string) =>
  errors.duplicate('invalid_request_error', {
    detail: `Price preference with attribute: ${attribute}, value: ${value}, already exists.`,
  });
const norm = (attribute: string, value: string) => (attribute === 'currency_code' ? value.toLowerCase() : value);

export async function listPricePreferences(ctx: Ctx, filters: { attribute?: string; value?: string }, page: Page) {
  const where: SQL[] = [];
  if (filters.attribute) where.push(eq(pricePreferences.attribute, filters.attribute));
  if (filters.value) where.push(eq(pricePreferences.value, filters.value));
  const { rows, count } = await q.listPreferenceRows(ctx.db, where, page);
  return { price_preferences: rows, count };
}

export async function getPricePreference(ctx: Ctx, id: string) {
  const row = await q.findPreference(ctx.db, id);
  if (!row) throw notFound(id);
  return row;
}

export async function createPricePreference(
  ctx: Ctx,
  input: { attribute: 'region_id' | 'currency_code'; value: string; is_tax_inclusive?: boolean },
) {
  const now = ctx.clock.now();
  const row = {
    id: newId('prpref'),
    attribute: input.attribute,
    value: norm(input.attribute, input.value),
    is_tax_inclusive: input.is_tax_inclusive ?? false,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  try {
    await q.insertPreference(ctx.db, row);
  } catch (err) {
    throw isUniqueViolation(err) ? taken(row.attribute, row.value) : err;
  }
  return row;
}

export async function updatePricePreference(
  ctx: Ctx,
  id: string,
  input: { attribute?: string; value?: string; is_tax_inclusive?: boolean },
) {
  const current = await getPricePreference(ctx, id);
  const attribute = input.attribute ?? current.attribute;
  const patch = { ...input, updated_at: ctx.clock.now() };
  if (input.value !== undefined) patch.value = norm(attribute, input.value);
  try {
    const row = await q.updatePreferenceRow(ctx.db, id, patch);
    if (!row) throw notFound(id);
    return row;
  } catch (err) {
    throw isUniqueViolation(err) ? taken(attribute, patch.value ?? current.value) : err;
  }
}

export async function deletePricePreference(ctx: Ctx, id: string) {
  if (!(await q.softDeletePreference(ctx.db, id, ctx.clock.now()))) throw notFound(id);
  return { id, object: 'price_preference' as const, deleted: true as const };
}

/**
 * A store's currencies keep their currency preferences in step, as Medusa's store workflows do
 * (`updatePricePreferencesAsArrayStep`): each currency gets a preference, made when missing; an
 * `is_tax_inclusive` given sets it, one left out keeps what the preference says (false for a new
 * one). A currency dropped from the store keeps its preference, as in Medusa. Runs in the
 * caller's transaction, so the store and its preferences commit together.
 */
export async function keepCurrencyPreferences(
  tctx: TxCtx,
  currencies: { currency_code: string; is_tax_inclusive?: boolean }[],
): Promise<void> {
  const codes = currencies.map((c) => c.currency_code.toLowerCase());
  const existing = new Map((await q.currencyPreferences(tctx.tx, codes)).map((p) => [p.value, p]));
  const now = tctx.clock.now();
  for (const [i, c] of currencies.entries()) {
    const found = existing.get(codes[i]);
    if (!found) {
      await q.insertPreferenceIfMissing(tctx.tx, {
        id: newId('prpref'),
        attribute: 'currency_code',
        value: codes[i],
        is_tax_inclusive: c.is_tax_inclusive ?? false,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
    } else if (c.is_tax_inclusive !== undefined && c.is_tax_inclusive !== found.is_tax_inclusive) {
      await q.updatePreferenceRow(tctx.tx, found.id, { is_tax_inclusive: c.is_tax_inclusive, updated_at: now });
    }
  }
}

/** Whether each of these currencies' prices include tax, by its preference (none: false). */
export async function currencyInclusion(ctx: Ctx, codes: string[]): Promise<Map<string, boolean>> {
  const rows = await q.currencyPreferences(executor(ctx), codes);
  return new Map(rows.map((p) => [p.value, p.is_tax_inclusive]));
}
