import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './type-queries.ts';
import type { CreateShippingOptionTypeInput, UpdateShippingOptionTypeInput } from './type-schema.ts';

/**
 * Shipping option types (`/admin/shipping-option-types`, Medusa's): a label, a code and a
 * description that options share by `type_id`. An option given an inline `type` gets a type of
 * its own. A type options still use cannot be deleted (they would name a type that is gone).
 */

export async function listOptionTypes(ctx: Ctx, f: q.TypeFilters, page: Page) {
  const [rows, count] = await Promise.all([q.listTypeRows(ctx.db, f, page), q.countTypes(ctx.db, f)]);
  return { shipping_option_types: rows, count };
}

export async function getOptionType(db: Executor, id: string): Promise<q.TypeRow> {
  const row = await q.findLiveType(db, id);
  if (!row) throw errors.notFound('shipping_option_type_not_found', { id });
  return row;
}

/** A new type row; the caller's transaction (an option created with an inline type makes one too). */
export async function insertOptionType(db: Executor, input: CreateShippingOptionTypeInput, at: Date): Promise<string> {
  const id = newId('sotype');
  await q.insertType(db, {
    id,
    label: input.label,
    code: input.code,
    description: input.description ?? '',
    created_at: at,
    updated_at: at,
  });
  return id;
}

export function createOptionType(ctx: Ctx, input: CreateShippingOptionTypeInput) {
  return inTx(ctx, async ({ tx, clock }) => getOptionType(tx, await insertOptionType(tx, input, clock.now())));
}

export function updateOptionType(ctx: Ctx, id: string, input: UpdateShippingOptionTypeInput) {
  return inTx(ctx, async ({ tx, clock }) => {
    await getOptionType(tx, id);
    const at = clock.now();
    await q.updateTypeRow(tx, id, { ...input, updated_at: at });
    const row = await getOptionType(tx, id);
    await q.copyTypeToOptions(tx, row, at);
    return row;
  });
}

export function deleteOptionType(ctx: Ctx, id: string) {
  return inTx(ctx, async ({ tx, clock }) => {
    await getOptionType(tx, id);
    const used = await q.countLiveOptionsOfType(tx, id);
    if (used) throw errors.notAllowed('shipping_option_type_in_use', { id, count: used });
    await q.updateTypeRow(tx, id, { deleted_at: clock.now() });
    return { id, object: 'shipping_option_type' as const, deleted: true as const };
  });
}
