import { inTx, type Ctx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { ScheduledJob } from '../../platform/jobs/scheduled-job.ts';
import { markIdleCartsAbandoned } from '../carts/service.ts';
import { findCart, type FullCart } from './cart-read.ts';
import { buildCartView } from './cart-view.ts';

export const CART_IDLE_MS = 60 * 60 * 1000;
const BATCH = 100;

/**
 * Marks carts idle for an hour (not completed, not yet abandoned) as abandoned and emits
 * `cart.abandoned` for each, in the same transaction as the mark: the claim (SKIP LOCKED, then
 * `abandoned_at is null` re-checked under the lock) hands each cart to exactly one run, however
 * many instances run the job at once. A cart stays abandoned once marked, so the event is sent
 * at most once per cart even if the shopper comes back and leaves again.
 */
export async function abandonIdleCarts(ctx: Ctx): Promise<number> {
  let total = 0;
  for (;;) {
    const marked = await inTx(ctx, async (tctx) => {
      const now = tctx.clock.now();
      const ids = await markIdleCartsAbandoned(tctx, new Date(now.getTime() - CART_IDLE_MS), now, BATCH);
      for (const id of ids) {
        const cart = (await findCart(tctx.tx, id))!;
        await emit(tctx, 'cart.abandoned', { ...payloadOf(cart, now), abandoned_at: now });
      }
      return ids.length;
    });
    total += marked;
    if (marked < BATCH) return total;
  }
}

/** The cart as the store shows it; a cart whose region was deleted since still gets its event. */
function payloadOf(cart: FullCart, now: Date): { id: string; email: string | null } & Record<string, unknown> {
  try {
    return buildCartView(cart, now);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const { customer_email: _e, region: _r, ...row } = cart;
    return row;
  }
}

export const cartAbandonmentJob: ScheduledJob = { name: 'cart-abandonment', everyMs: 60_000, run: abandonIdleCarts };
