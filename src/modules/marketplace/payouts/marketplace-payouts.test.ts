import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../../../../test/app.ts';
import { buildApp } from '../../../app.ts';
import { admin } from '../sales/checkout.testing.ts';
import { buy, itemOf, startStripeWorld, vendorOf, type StripeWorld } from '../sales/stripe-world.testing.ts';

let w: StripeWorld;
beforeAll(async () => {
  w = await startStripeWorld();
});
afterAll(() => w.close());

interface Sale {
  id: string;
  kind: string;
  source_id: string;
  payout_status: string;
  transfer_id: string | null;
  vendor_share_eur: number;
  commission_eur: number;
  amount_eur: number;
}
const salesOf = async (vendorId: string): Promise<Sale[]> =>
  (await admin(w.t, 'GET', `/admin/marketplace/sales?vendor_id=${vendorId}&limit=100`)).json().sales;
const ledgerOf = async (vendorId: string) =>
  (await admin(w.t, 'GET', `/admin/marketplace/payouts?vendor_id=${vendorId}`)).json().payouts[0];
const run = async () => {
  const res = await admin(w.t, 'POST', '/admin/marketplace/payouts/run');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
/** Transfers at the stand-in to this connected account. */
const transfersTo = (account: string) =>
  [...w.stripe.billing.transfers.values()].filter((t) => t.destination === account);

describe('payouts', () => {
  it("splits each sale at the vendor's commission and pays its share once, by a transfer per sale", async () => {
    const v = await vendorOf(w, { commission: 25, account: null });
    const item = await itemOf(w, v, { price_eur: '40' });
    await buy(w, item.marketplace_id, 'inst_pay_1');
    await buy(w, item.marketplace_id, 'inst_pay_2');
    const sales = await salesOf(v.id);
    expect(sales).toHaveLength(2);
    for (const s of sales)
      expect(s).toMatchObject({
        kind: 'sale',
        amount_eur: 40,
        commission_eur: 10,
        vendor_share_eur: 30,
        payout_status: 'pending',
      });

    // No connected account yet: the shares wait.
    expect((await run()).transferred).toBe(0);
    const account = `acct_${v.namespace.replace(/-/g, '')}`;
    expect(
      (await admin(w.t, 'POST', `/admin/marketplace/vendors/${v.id}/payouts`, { payout_account: account })).statusCode,
    ).toBe(200);
    expect(
      (await admin(w.t, 'POST', `/admin/marketplace/vendors/${v.id}/payouts`, { payout_account: 'ba_123' })).json()
        .code,
    ).toBe('marketplace_payout_account_invalid');

    const before = w.stripe.requests.length;
    expect(await run()).toMatchObject({ transferred: 2, reversed: 0 });
    const asked = w.stripe.requests.slice(before).filter((r) => r.path === '/v1/transfers');
    expect(asked.map((r) => r.headers['idempotency-key']).sort()).toEqual(sales.map((s) => `payout_${s.id}`).sort());
    expect(asked[0].form).toMatchObject({ amount: '3000', currency: 'eur', destination: account });
    const transfers = transfersTo(account);
    expect(transfers.map((t) => t.amount)).toEqual([3000, 3000]);
    const paid = await salesOf(v.id);
    expect(paid.map((s) => s.payout_status)).toEqual(['paid', 'paid']);
    expect(paid.map((s) => s.transfer_id).sort()).toEqual(transfers.map((t) => t.id).sort());

    // Again: nothing is owed, nothing moves.
    expect(await run()).toMatchObject({ transferred: 0, reversed: 0 });
    expect(transfersTo(account)).toHaveLength(2);
    expect(await ledgerOf(v.id)).toEqual({
      vendor_id: v.id,
      currency: 'eur',
      sales_eur: 80,
      refunds_eur: 0,
      commission_eur: 20,
      vendor_share_eur: 60,
      paid_out_eur: 60,
      owed_eur: 0,
    });
    // The vendor reads its own ledger and sales; the operator's desk is closed to it.
    const asVendor = (url: string) =>
      w.t.inject({ method: 'GET', url, headers: { authorization: `Bearer ${v.token}` } });
    expect((await asVendor('/admin/marketplace/vendor/payouts')).json().payouts).toEqual([await ledgerOf(v.id)]);
    expect((await asVendor('/admin/marketplace/vendor/sales')).json().count).toBe(2);
    expect(
      (
        await w.t.inject({
          method: 'POST',
          url: '/admin/marketplace/payouts/run',
          headers: { authorization: `Bearer ${v.token}` },
        })
      ).statusCode,
    ).toBe(403);
  });

  it("a refund gives the money back and reverses the vendor's share: never paid, or taken back from its transfer", async () => {
    const v = await vendorOf(w, { commission: 20 });
    const account = `acct_${v.namespace.replace(/-/g, '')}`;
    const item = await itemOf(w, v, { price_eur: '50' });
    await buy(w, item.marketplace_id, 'inst_refund_paid');
    expect((await run()).transferred).toBe(1);
    const [paidSale] = await salesOf(v.id);
    await buy(w, item.marketplace_id, 'inst_refund_early');
    const early = (await salesOf(v.id)).find((s) => s.id !== paidSale.id)!;
    expect(early.payout_status).toBe('pending');

    // Refunded before any payout: the share is never transferred.
    const r1 = await admin(w.t, 'POST', `/admin/marketplace/sales/${early.id}/refund`);
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json().sale).toMatchObject({
      kind: 'refund',
      refund_of: early.id,
      amount_eur: 50,
      payout_status: 'none',
    });
    // Refunded after its payout: the refund waits for a reversal.
    const r2 = await admin(w.t, 'POST', `/admin/marketplace/sales/${paidSale.id}/refund`);
    expect(r2.json().sale.payout_status).toBe('pending');
    const again = await admin(w.t, 'POST', `/admin/marketplace/sales/${paidSale.id}/refund`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('marketplace_sale_refunded');
    const ofRefund = await admin(w.t, 'POST', `/admin/marketplace/sales/${r2.json().sale.id}/refund`);
    expect(ofRefund.json().code).toBe('marketplace_sale_not_refundable');

    // Stripe refunded both payments in full.
    const charges = [...w.stripe.payments.charges.values()].filter((c) => c.amount === 5000 && c.refunded);
    expect(charges.length).toBeGreaterThanOrEqual(2);

    expect(await run()).toMatchObject({ transferred: 0, reversed: 1 });
    const [transfer] = transfersTo(account);
    expect(transfer).toMatchObject({ amount: 4000, amount_reversed: 4000, reversed: true });
    const rows = await salesOf(v.id);
    expect(rows.find((s) => s.id === early.id)!.payout_status).toBe('canceled');
    expect(rows.find((s) => s.id === r2.json().sale.id)!.transfer_id).toMatch(/^trr_/);
    expect(await ledgerOf(v.id)).toMatchObject({
      sales_eur: 100,
      refunds_eur: 100,
      commission_eur: 0,
      vendor_share_eur: 0,
      paid_out_eur: 0,
      owed_eur: 0,
    });
    expect(transfersTo(account)).toHaveLength(1);
  });

  it('no transfer twice: a run that dies after Stripe made the transfer is finished by the next process', async () => {
    const v = await vendorOf(w, { commission: 10 });
    const account = `acct_${v.namespace.replace(/-/g, '')}`;
    const item = await itemOf(w, v, { price_eur: '20' });
    await buy(w, item.marketplace_id, 'inst_crash_1');
    await buy(w, item.marketplace_id, 'inst_crash_2');

    // Stripe makes the first transfer, but the answer never arrives (the client's retry neither):
    // to the process, as if it had been killed between asking and recording.
    w.stripe.dropReplies(/^\/v1\/transfers$/, 2);
    expect(await run()).toMatchObject({ transferred: 1, waiting: 1 });
    expect(transfersTo(account)).toHaveLength(2);
    const stuck = (await salesOf(v.id)).find((s) => s.payout_status === 'transferring')!;
    expect(stuck).toBeDefined();
    expect(stuck.transfer_id).toBeNull();

    // A fresh process on the same database (nothing in memory) runs the payouts again.
    const restarted = await buildApp({ database: w.t.database, config: w.t.config, clock: w.t.clock, logger: false });
    try {
      const token = (await restarted.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN })).json()
        .token;
      const res = await restarted.inject({
        method: 'POST',
        url: '/admin/marketplace/payouts/run',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ transferred: 1, waiting: 0 });
    } finally {
      await restarted.close();
    }
    const transfers = transfersTo(account);
    expect(transfers).toHaveLength(2);
    const rows = await salesOf(v.id);
    expect(rows.map((s) => s.payout_status)).toEqual(['paid', 'paid']);
    expect(rows.map((s) => s.transfer_id).sort()).toEqual(transfers.map((t) => t.id).sort());
    expect(rows.find((s) => s.id === stuck.id)!.transfer_id).toBe(
      transfers.find((t) => t.transfer_group === stuck.id)!.id,
    );
  });

  it('without Stripe there is nothing to move money with: a payout run is refused', async () => {
    const { runPayouts } = await import('./payouts.ts');
    await expect(runPayouts(w.t.ctx, null)).rejects.toMatchObject({ code: 'marketplace_money_needs_stripe' });
  });
});
