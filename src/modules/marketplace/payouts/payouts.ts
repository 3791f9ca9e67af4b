import { inTx, type Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import type { StripeMoney } from '../sales/stripe-money.ts';
import * as vq from '../vendors/queries.ts';
import { recordRefund, saleJson } from './ledger.ts';
import * as q from './queries.ts';

/** At most this many ledger rows per run; the next run takes the rest. */
const RUN_LIMIT = 200;

export interface PayoutRun {
  transferred: number;
  reversed: number;
  /** Rows left owed: the vendor has no payout account yet, or the provider refused (payout_error says why). */
  waiting: number;
}

/**
 * Pays vendors their shares, one Stripe transfer per sale to the vendor's connected account, and
 * reverses the transfer of a sale refunded after it was paid out.
 *
 * Never twice: a row is first claimed (`transferring`, committed), then Stripe is asked with the
 * row's id as the idempotency key, then the answer is recorded. A run that dies between the ask
 * and the record (a crash, a kill -9) leaves the row `transferring`; the next run asks again with
 * the same key and Stripe answers with the transfer it already made, which is then recorded.
 */
export async function runPayouts(
  ctx: Ctx,
  money: StripeMoney | null,
  /** Called before each row (the scheduled run renews its lease); false stops the run there. */
  heartbeat?: () => Promise<boolean>,
): Promise<PayoutRun> {
  if (!money) throw errors.notAllowed('marketplace_money_needs_stripe');
  const run: PayoutRun = { transferred: 0, reversed: 0, waiting: 0 };
  for (const due of await q.duePayouts(ctx.db, RUN_LIMIT)) {
    if (heartbeat && !(await heartbeat())) break;
    const vendor = due.vendor_id ? await vq.findVendor(ctx.db, due.vendor_id) : undefined;
    if (due.kind === 'sale' && !vendor?.payout_account) {
      run.waiting++;
      continue;
    }
    const claimed = await q.setPayout(ctx.db, due.id, ['pending', 'transferring'], { payout_status: 'transferring' });
    if (!claimed) continue; // refunded (canceled) meanwhile
    try {
      if (claimed.kind === 'sale') {
        const transferId = await money.transfer({
          amountCents: claimed.vendor_cents,
          currency: claimed.currency,
          destination: vendor!.payout_account!,
          group: claimed.id,
          key: `payout_${claimed.id}`,
        });
        await record(ctx, claimed.id, transferId);
        run.transferred++;
      } else {
        const sale = await q.findSale(ctx.db, claimed.refund_of!);
        // The sale's own transfer is still being made: reverse it on a later run.
        if (!sale?.transfer_id) {
          await q.setPayout(ctx.db, claimed.id, ['transferring'], { payout_status: 'pending' });
          run.waiting++;
          continue;
        }
        const reversalId = await money.reverse(sale.transfer_id, claimed.vendor_cents, `reversal_${claimed.id}`);
        await record(ctx, claimed.id, reversalId);
        run.reversed++;
      }
    } catch (err) {
      // Left `transferring`: the next run asks again with the same key, so nothing is paid twice.
      ctx.log.warn({ err, sale: claimed.id }, 'vendor payout failed; retried on the next run');
      await q.setPayout(ctx.db, claimed.id, ['transferring'], { payout_error: (err as Error).message.slice(0, 500) });
      run.waiting++;
    }
  }
  return run;
}

async function record(ctx: Ctx, id: string, transferId: string): Promise<void> {
  await inTx(ctx, async (tctx) => {
    await q.setPayout(tctx.tx, id, ['transferring'], {
      payout_status: 'paid',
      transfer_id: transferId,
      paid_out_at: tctx.clock.now(),
      payout_error: null,
    });
  });
}

/**
 * Refunds a whole sale: the provider gives the money back (Stripe, keyed by the sale so a retry
 * refunds once), then the ledger reverses the vendor's share (ledger.ts). A test-provider sale took
 * no money, so only the ledger moves.
 */
export async function refundSale(ctx: Ctx, money: StripeMoney | null, id: string) {
  const sale = await q.findSale(ctx.db, id);
  if (!sale) throw errors.notFound('marketplace_sale_not_found', { id });
  if (sale.kind !== 'sale') throw errors.notAllowed('marketplace_sale_not_refundable', { id });
  if (await q.findSaleBySource(ctx.db, `refund:${id}`)) throw errors.conflict('marketplace_sale_refunded', { id });
  if (sale.provider === 'stripe') {
    if (!money) throw errors.notAllowed('marketplace_money_needs_stripe');
    const ref = sale.payment_ref ? { paymentIntent: sale.payment_ref } : { invoice: sale.source_id };
    await money.refund(ref, sale.amount_cents, `refund_${sale.id}`);
  }
  return saleJson(await recordRefund(ctx, id));
}
