import type { Static } from 'typebox';
import { executor, inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { newPriceRows, priceView, type PriceView } from './price-rows.ts';
import * as q from './queries.ts';
import type { CreatePriceListBody, PriceListQuery, UpdatePriceListBody } from './schema.ts';

/** The customer-group rule, the one the store's price selection reads. */
export const GROUP_RULE = 'customer.groups.id';

export type PriceListView = Omit<q.PriceListRow, 'group_ids' | 'rules_count'> & { prices: PriceView[] };

export const priceListNotFound = (id: string) => errors.notFound('price_list_not_found', { id });
const list = <T>(v: T | T[] | undefined) => (v === undefined ? undefined : [v].flat());
const date = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

function view(row: q.PriceListRow, prices: q.PriceRow[]): PriceListView {
  const { group_ids: _g, rules_count: _c, ...rest } = row;
  return { ...rest, prices: prices.map(priceView) };
}

async function views(ctx: Ctx, rows: q.PriceListRow[]): Promise<PriceListView[]> {
  const prices = await q.pricesOfLists(
    executor(ctx),
    rows.map((r) => r.id),
  );
  return rows.map((r) => view(r, prices.get(r.id) ?? []));
}

/** The stored form of `rules`: the group ids as an array (null: no group rule) and the rule count. */
function ruleColumns(rules: Record<string, string[]>) {
  const groups = rules[GROUP_RULE];
  return { rules, group_ids: groups ? [...new Set(groups)].sort() : null, rules_count: Object.keys(rules).length };
}

function checkWindow(starts: Date | null | undefined, ends: Date | null | undefined): void {
  if (starts && ends && ends < starts) throw errors.invalid('price_list_dates_inverted');
}

export async function listPriceLists(ctx: Ctx, query: Static<typeof PriceListQuery>, page: Page) {
  const filters: q.PriceListFilters = { q: query.q || undefined, id: list(query.id), status: list(query.status) };
  const [rows, count] = await Promise.all([
    page.limit === 0 ? [] : q.listPriceListRows(ctx.db, filters, page),
    q.countPriceLists(ctx.db, filters),
  ]);
  return { price_lists: await views(ctx, rows), count, ...page };
}

export async function getPriceList(ctx: Ctx, id: string): Promise<PriceListView> {
  const row = await q.findLivePriceList(executor(ctx), id);
  if (!row) throw priceListNotFound(id);
  return (await views(ctx, [row]))[0];
}

export function createPriceList(ctx: Ctx, input: Static<typeof CreatePriceListBody>): Promise<PriceListView> {
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const starts = date(input.starts_at) ?? null;
    const ends = date(input.ends_at) ?? null;
    checkWindow(starts, ends);
    const row: q.PriceListRow = {
      id: newId('plist'),
      title: input.title,
      description: input.description,
      status: input.status ?? 'draft',
      type: input.type ?? 'sale',
      starts_at: starts,
      ends_at: ends,
      ...ruleColumns(input.rules ?? {}),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await q.insertPriceList(tctx.tx, row);
    const prices = await newPriceRows(tctx, row.id, input.prices ?? []);
    await q.insertPrices(tctx.tx, prices);
    return emitted(tctx, 'price_list.created', view(row, prices));
  });
}

export function updatePriceList(
  ctx: Ctx,
  id: string,
  input: Static<typeof UpdatePriceListBody>,
): Promise<PriceListView> {
  return inTx(ctx, async (tctx) => {
    const current = await q.findLivePriceList(tctx.tx, id, true);
    if (!current) throw priceListNotFound(id);
    const { rules, starts_at, ends_at, ...rest } = input;
    const patch: Partial<q.PriceListRow> = {
      ...rest,
      ...(rules === undefined ? {} : ruleColumns(rules)),
      ...(starts_at === undefined ? {} : { starts_at: date(starts_at) }),
      ...(ends_at === undefined ? {} : { ends_at: date(ends_at) }),
      updated_at: tctx.clock.now(),
    };
    checkWindow(patch.starts_at ?? current.starts_at, patch.ends_at ?? current.ends_at);
    await q.updatePriceListRow(tctx.tx, id, patch);
    const [updated] = await views(tctx, [{ ...current, ...patch }]);
    return emitted(tctx, 'price_list.updated', updated);
  });
}

export function deletePriceList(ctx: Ctx, id: string) {
  return inTx(ctx, async (tctx) => {
    if (!(await q.findLivePriceList(tctx.tx, id, true))) throw priceListNotFound(id);
    await q.softDeletePriceList(tctx.tx, id, tctx.clock.now());
    await emit(tctx, 'price_list.deleted', { id });
    return { id, object: 'price_list' as const, deleted: true as const };
  });
}

/** `POST /admin/price-lists/{id}/products`: drops the list's prices of these products' variants. */
export function removeProducts(ctx: Ctx, id: string, productIds: string[] | undefined): Promise<PriceListView> {
  if (!productIds?.length) throw errors.invalid('price_list_product_ids_required');
  return inTx(ctx, async (tctx) => {
    if (!(await q.findLivePriceList(tctx.tx, id, true))) throw priceListNotFound(id);
    await q.deletePricesOfProducts(tctx.tx, id, productIds);
    await q.updatePriceListRow(tctx.tx, id, { updated_at: tctx.clock.now() });
    const list = await getPriceList(tctx, id);
    return emitted(tctx, 'price_list.updated', list);
  });
}

export async function emitted(
  tctx: TxCtx,
  name: 'price_list.created' | 'price_list.updated',
  list: PriceListView,
): Promise<PriceListView> {
  const { prices: _p, ...payload } = list;
  await emit(tctx, name, payload);
  return list;
}
