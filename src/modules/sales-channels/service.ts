import { inTx, type Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { refreshStoreDocuments } from '../products/store-documents.ts';
import {
  countSalesChannels,
  deleteChannelKeyLinks,
  deleteChannelProductLinks,
  findLiveProductIds,
  findLiveSalesChannel,
  insertSalesChannel,
  linkProducts,
  listSalesChannelRows,
  shareLockLiveSalesChannel,
  softDeleteSalesChannel,
  unlinkProducts,
  updateSalesChannelRow,
  type SalesChannelFilters,
  type SalesChannelRow,
} from './queries.ts';

export interface SalesChannelView {
  id: string;
  name: string;
  description: string | null;
  is_disabled: boolean;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

export interface SalesChannelInput {
  name?: string;
  description?: string | null;
  is_disabled?: boolean;
  metadata?: Record<string, unknown> | null;
}

function toView(row: SalesChannelRow): SalesChannelView {
  const { deleted_at: _deleted, ...view } = row;
  return view;
}

const notFound = (id: string) => errors.notFound('sales_channel_not_found', { id });

/** `id=a,b` and `id=a&id=b` mean the same (Medusa splits a comma list). */
export function splitList(values: string[] | undefined): string[] | undefined {
  return values?.flatMap((v) => v.split(',')).filter((v) => v !== '');
}

export async function listSalesChannels(ctx: Ctx, filters: SalesChannelFilters, page: Page) {
  const f = { ...filters, id: splitList(filters.id) };
  const [rows, count] = await Promise.all([listSalesChannelRows(ctx.db, f, page), countSalesChannels(ctx.db, f)]);
  return { sales_channels: rows.map(toView), count };
}

export async function getSalesChannel(ctx: Ctx, id: string): Promise<SalesChannelView> {
  const row = await findLiveSalesChannel(ctx.db, id);
  if (!row) throw notFound(id);
  return toView(row);
}

export async function createSalesChannel(
  ctx: Ctx,
  input: SalesChannelInput & { name: string },
): Promise<SalesChannelView> {
  const now = ctx.clock.now();
  const row = await insertSalesChannel(ctx.db, {
    id: newId('sc'),
    name: input.name,
    description: input.description ?? null,
    is_disabled: input.is_disabled ?? false,
    metadata: input.metadata ?? null,
    created_at: now,
    updated_at: now,
  });
  return toView(row);
}

export async function updateSalesChannel(ctx: Ctx, id: string, input: SalesChannelInput): Promise<SalesChannelView> {
  const row = await updateSalesChannelRow(ctx.db, id, { ...input, updated_at: ctx.clock.now() });
  if (!row) throw notFound(id);
  return toView(row);
}

/** Soft delete; the channel's links to keys and products go in the same transaction. */
export async function deleteSalesChannel(ctx: Ctx, id: string) {
  await inTx(ctx, async ({ tx, clock }) => {
    if (!(await softDeleteSalesChannel(tx, id, clock.now()))) throw notFound(id);
    await deleteChannelKeyLinks(tx, id);
    await refreshStoreDocuments(tx, await deleteChannelProductLinks(tx, id));
  });
  return { id, object: 'sales-channel' as const, deleted: true as const };
}

/** Adds and removes product links. Every id to add must be a live product, or nothing changes. */
export async function batchSalesChannelProducts(
  ctx: Ctx,
  id: string,
  input: { add?: string[]; remove?: string[] },
): Promise<SalesChannelView> {
  const add = [...new Set(input.add ?? [])].sort();
  const remove = [...new Set(input.remove ?? [])].sort();
  return inTx(ctx, async ({ tx }) => {
    const channel = await shareLockLiveSalesChannel(tx, id);
    if (!channel) throw notFound(id);
    const live = new Set(await findLiveProductIds(tx, add));
    const missing = add.filter((p) => !live.has(p));
    if (missing.length) throw errors.invalid('products_missing', { ids: missing.join(', ') });
    await linkProducts(tx, id, add);
    await unlinkProducts(tx, id, remove);
    await refreshStoreDocuments(tx, [...add, ...remove]);
    return toView(channel);
  });
}
