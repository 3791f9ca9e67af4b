import type { TxCtx } from '../../platform/context.ts';
import { lockLiveProductsOf, softDeleteProductsSet } from './bulk-write-queries.ts';

/**
 * Soft delete of many products in the caller's transaction, in two statements whatever their
 * count: the live ones among `ids` are locked in id order (so overlapping deletes and updates do
 * not deadlock), then they and their variants are marked deleted with one `product.deleted` each
 * (bulk-write-queries.ts). Ids of no live product are passed over, with no event since nothing
 * changed: Medusa's batch answers them as deleted (batch-service.ts); the single route turns that
 * into its 404 (service.ts). Store documents are the caller's (refreshStoreDocuments). Returns
 * the ids deleted, in the order given.
 */
export async function deleteProductsIn(tctx: TxCtx, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const live = new Set((await lockLiveProductsOf(tctx.tx, unique)).map((p) => p.id));
  const deleted = unique.filter((id) => live.has(id));
  await softDeleteProductsSet(tctx.tx, deleted, tctx.clock.now());
  return deleted;
}
