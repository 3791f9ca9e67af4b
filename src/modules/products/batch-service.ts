import type { Static } from 'typebox';
import { inTx, type Ctx } from '../../platform/context.ts';
import { withTxRetry } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import { type BatchProductsInput, type BatchProductsResponse, MAX_BATCH_ITEMS } from './schema.ts';
import { createProductIn, deleteProductIn, type ProductJson, updateProductIn } from './service.ts';
import { refreshStoreDocuments } from './store-documents.ts';

export type BatchProductsResult = Static<typeof BatchProductsResponse>;

/**
 * `POST /admin/products/batch` (importers): creates, then updates, then deletes, all in one
 * transaction through the single routes' own writes, with their checks, answers and events. Any
 * failing item (bad input, a taken handle or SKU, an unknown id) fails the whole batch with its
 * error and writes nothing. `created` and `updated` follow the request's order.
 */
export async function batchProducts(ctx: Ctx, input: BatchProductsInput): Promise<BatchProductsResult> {
  const create = input.create ?? [];
  const update = input.update ?? [];
  // Deleting twice in one request is deleting once (the second would be a 404 of our own making).
  const remove = [...new Set(input.delete ?? [])];
  const items = create.length + update.length + remove.length;
  if (items > MAX_BATCH_ITEMS) throw errors.invalid('product_batch_too_large', { max: MAX_BATCH_ITEMS, count: items });
  const deleted = { ids: remove, object: 'product' as const, deleted: true as const };
  if (!items) return { created: [], updated: [], deleted };
  // Concurrent batches touch channel counters and products in their own orders: a deadlock on
  // PostgreSQL rolls one back whole, and it simply runs again.
  return withTxRetry(() =>
    inTx(ctx, async (tctx) => {
      const created: ProductJson[] = [];
      for (const item of create) created.push(await createProductIn(tctx, item));
      const updated: ProductJson[] = [];
      for (const { id, ...patch } of update) updated.push(await updateProductIn(tctx, id, patch));
      for (const id of remove) await deleteProductIn(tctx, id);
      // Once for the whole batch: one statement pair rebuilds every touched product's document.
      await refreshStoreDocuments(tctx.tx, [...created.map((p) => p.id), ...update.map((u) => u.id), ...remove]);
      return { created, updated, deleted };
    }),
  );
}
