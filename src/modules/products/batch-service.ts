import type { Static } from 'typebox';
import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { withTxRetry } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import { createProductsAnswered } from './bulk-create.ts';
import { deleteProductsIn } from './bulk-delete.ts';
import { type ProductUpdate, updateProductsAnswered } from './bulk-update.ts';
import { type BatchProductsInput, type BatchProductsResponse, MAX_BATCH_ITEMS } from './schema.ts';
import type { ProductJson } from './service.ts';
import { refreshStoreDocuments } from './store-documents.ts';

export type BatchProductsResult = Static<typeof BatchProductsResponse>;

/**
 * `POST /admin/products/batch` (importers): creates, then updates, then deletes, all in one
 * transaction, with the single routes' checks, answers and events, each set-based: the creates
 * through createProductsIn (bulk-create.ts), the updates through updateProductsIn
 * (bulk-update.ts), the deletes through deleteProductsIn (bulk-delete.ts), each a fixed number
 * of statements whatever the count. Any failing create or update (bad input, a taken handle or
 * SKU, an unknown id) fails the whole batch with its error and writes nothing. A delete of an id
 * that names no live product changes nothing and is answered as deleted, as Medusa's batch does
 * (its workflow soft-deletes what it finds). `created` and `updated` follow the request's order.
 */
export async function batchProducts(ctx: Ctx, input: BatchProductsInput): Promise<BatchProductsResult> {
  const create = input.create ?? [];
  const update = input.update ?? [];
  // Deleting twice in one request is deleting once.
  const remove = [...new Set(input.delete ?? [])];
  const items = create.length + update.length + remove.length;
  if (items > MAX_BATCH_ITEMS) throw errors.invalid('product_batch_too_large', { max: MAX_BATCH_ITEMS, count: items });
  const deleted = { ids: remove, object: 'product' as const, deleted: true as const };
  if (!items) return { created: [], updated: [], deleted };
  // Concurrent batches touch channel counters and products in their own orders: a deadlock on
  // PostgreSQL rolls one back whole, and it simply runs again.
  return withTxRetry(() =>
    inTx(ctx, async (tctx) => {
      // Each as its `product.created` carries it, before the updates, as one at a time answers it.
      const created = await createProductsAnswered<ProductJson>(tctx, create);
      const updated = await updateAll(tctx, update);
      const gone = await deleteProductsIn(tctx, remove);
      // Once for the whole batch: one statement pair rebuilds every touched product's document.
      await refreshStoreDocuments(tctx.tx, [...created.map((p) => p.id), ...update.map((u) => u.id), ...gone]);
      return { created, updated, deleted };
    }),
  );
}

/**
 * The updates, set-based, and each one's answer (the product as it stands after it, what
 * updateProductIn answers and puts in its event: the event's payload, handed back). A product
 * listed more than once changes once a round, in the request's order, so its second item sees its
 * first as one at a time would; a batch without repeats is one round: its statements do not grow
 * with its size.
 */
async function updateAll(tctx: TxCtx, update: ProductUpdate[]): Promise<ProductJson[]> {
  const answers: ProductJson[] = new Array(update.length);
  for (const round of rounds(update)) {
    const found = await updateProductsAnswered<ProductJson>(
      tctx,
      round.map((i) => update[i]),
    );
    round.forEach((i, k) => {
      answers[i] = found[k];
    });
  }
  return answers;
}

/** Positions of `update` split so that a round names each product once: its n-th item goes in round n. */
function rounds(update: ProductUpdate[]): number[][] {
  const seen = new Map<string, number>();
  const out: number[][] = [];
  update.forEach((u, i) => {
    const n = seen.get(u.id) ?? 0;
    seen.set(u.id, n + 1);
    if (!out[n]) out[n] = [];
    out[n].push(i);
  });
  return out;
}
