import type { Ctx } from '../../platform/context.ts';
import { type PriceListContext, windowEpoch } from '../price-lists/store-prices.ts';

/**
 * What a priced store answer depends on besides the request and the catalog version: the
 * shopper's customer groups (a group's prices must never reach anyone else, so they are part of
 * the key) and how many price list start/end times have passed (a list begins or ends without a
 * write). An answer read while a boundary is still ahead is not kept for repeats
 * (repeat-reads.ts), which answer without asking the clock; signed-in requests never go there.
 */
export async function priceKey(
  ctx: Ctx,
  cache: object,
  version: number,
  lists: PriceListContext,
): Promise<{ key: string; repeatable: boolean }> {
  const { epoch, ahead } = await windowEpoch(ctx.db, cache, version, lists.now.getTime());
  return { key: `${lists.groups.join(',')}@${epoch}`, repeatable: !ahead && lists.groups.length === 0 };
}
