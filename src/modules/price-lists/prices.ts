import type { Static } from 'typebox';
import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import * as q from './queries.ts';
import { checkRange, newPriceRows, priceView, requireVariants } from './price-rows.ts';
import type { BatchPricesBody, UpdatePriceBody } from './schema.ts';
import { emitted, getPriceList, priceListNotFound } from './service.ts';

async function updateOne(tctx: TxCtx, current: q.PriceRow, u: Static<typeof UpdatePriceBody>): Promise<void> {
  const min = u.min_quantity === undefined ? current.min_quantity : u.min_quantity;
  const max = u.max_quantity === undefined ? current.max_quantity : u.max_quantity;
  checkRange(min, max);
  await q.updatePriceRow(tctx.tx, current.id, {
    variant_id: u.variant_id,
    ...(u.currency_code === undefined ? {} : { currency_code: u.currency_code.toLowerCase() }),
    ...(u.amount === undefined ? {} : { amount: u.amount }),
    min_quantity: min,
    max_quantity: max,
    ...(u.rules === undefined ? {} : { rules: u.rules, region_id: u.rules.region_id ?? null }),
    updated_at: tctx.clock.now(),
  });
}

/**
 * `POST /admin/price-lists/{id}/prices/batch`: creates, updates and deletes the list's prices in one
 * transaction; an update or delete of a price that is not the list's is a 404 and nothing is written.
 */
export function batchPrices(ctx: Ctx, listId: string, body: Static<typeof BatchPricesBody>) {
  const { create = [], update = [], delete: remove = [] } = body;
  return inTx(ctx, async (tctx) => {
    if (!(await q.findLivePriceList(tctx.tx, listId, true))) throw priceListNotFound(listId);
    const touched = [...new Set([...update.map((u) => u.id), ...remove])];
    const current = new Map((await q.pricesByIds(tctx.tx, listId, touched)).map((p) => [p.id, p]));
    const missing = touched.filter((id) => !current.has(id));
    if (missing.length) throw errors.notFound('price_list_prices_not_found', { ids: missing.join(', ') });
    await requireVariants(
      tctx,
      update.map((u) => u.variant_id),
    );
    const created = await newPriceRows(tctx, listId, create);
    await q.insertPrices(tctx.tx, created);
    for (const u of update) await updateOne(tctx, current.get(u.id)!, u);
    await q.deletePrices(tctx.tx, listId, remove);
    await q.updatePriceListRow(tctx.tx, listId, { updated_at: tctx.clock.now() });
    await emitted(tctx, 'price_list.updated', await getPriceList(tctx, listId));
    const updated = await q.pricesByIds(
      tctx.tx,
      listId,
      update.map((u) => u.id),
    );
    return {
      created: created.map(priceView),
      updated: updated.map(priceView),
      deleted: { ids: remove, object: 'price' as const, deleted: true as const },
    };
  });
}

export async function listPrices(ctx: Ctx, listId: string, variantIds: string[] | undefined, page: Page) {
  if (!(await q.findLivePriceList(ctx.db, listId))) throw priceListNotFound(listId);
  const [rows, count] = await Promise.all([
    q.listPriceRows(ctx.db, listId, variantIds, page),
    q.countPriceRows(ctx.db, listId, variantIds),
  ]);
  return { prices: rows.map(priceView), count, ...page };
}
