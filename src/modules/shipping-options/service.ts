import type { Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { getRegion } from '../regions/service.ts';
import * as q from './queries.ts';
import type { CreateShippingOptionInput, ShippingOptionView, UpdateShippingOptionInput } from './schema.ts';

const notFound = (id: string) => errors.notFound(`Shipping option with id: ${id} was not found`);

function view(row: q.ShippingOptionRow): ShippingOptionView {
  const { deleted_at: _deleted, ...rest } = row;
  return { ...rest, price_type: 'flat', data: rest.data ?? null };
}

async function assertRegion(ctx: Ctx, regionId: string): Promise<void> {
  if (!(await getRegion(ctx, regionId))) throw errors.invalid(`Region with id: ${regionId} was not found`);
}

export async function listShippingOptions(ctx: Ctx, regionId: string | undefined, page: Page) {
  const rows = page.limit === 0 ? [] : await q.listOptionRows(ctx.db, regionId, page);
  return { shipping_options: rows.map(view), count: await q.countOptions(ctx.db, regionId) };
}

export async function getShippingOption(ctx: Ctx, id: string): Promise<ShippingOptionView> {
  const row = await q.findLiveOption(ctx.db, id);
  if (!row) throw notFound(id);
  return view(row);
}

/** A live option for carts to copy from; the caller words its own error. */
export async function findShippingOption(db: Executor, id: string): Promise<ShippingOptionView | null> {
  const row = await q.findLiveOption(db, id);
  return row ? view(row) : null;
}

export async function createShippingOption(ctx: Ctx, input: CreateShippingOptionInput): Promise<ShippingOptionView> {
  await assertRegion(ctx, input.region_id);
  const now = ctx.clock.now();
  const row = await q.insertOption(ctx.db, {
    id: newId('so'),
    name: input.name,
    region_id: input.region_id,
    amount: input.amount,
    price_type: 'flat',
    provider_id: 'manual_manual',
    data: input.data ?? null,
    created_at: now,
    updated_at: now,
  });
  return view(row);
}

export async function updateShippingOption(
  ctx: Ctx,
  id: string,
  input: UpdateShippingOptionInput,
): Promise<ShippingOptionView> {
  if (input.region_id !== undefined) await assertRegion(ctx, input.region_id);
  const { price_type: _p, provider_id: _pr, ...patch } = input;
  const row = await q.updateOptionRow(ctx.db, id, { ...patch, updated_at: ctx.clock.now() });
  if (!row) throw notFound(id);
  return view(row);
}

export async function deleteShippingOption(ctx: Ctx, id: string) {
  if (!(await q.softDeleteOption(ctx.db, id, ctx.clock.now()))) throw notFound(id);
  return { id, object: 'shipping_option' as const, deleted: true as const };
}

/** Every live option of a region (at most 1000): what a cart of that region may choose from. */
export async function listRegionShippingOptions(ctx: Ctx, regionId: string): Promise<ShippingOptionView[]> {
  return (await q.listOptionRows(ctx.db, regionId, { limit: 1000, offset: 0 })).map(view);
}
