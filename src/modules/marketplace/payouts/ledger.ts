import { inTx, type Ctx, type TxCtx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { pageOf } from '../../../platform/http/pagination.ts';
import { newId } from '../../../platform/ids.ts';
import { euros } from '../catalog/item-json.ts';
import * as catalog from '../catalog/queries.ts';
import type { PaymentProviderId } from '../sales/tables.ts';
import * as vq from '../vendors/queries.ts';
import * as q from './queries.ts';

/** The split of one amount: the commission rounds to the cent, the vendor gets the rest (never a cent more). */
export function split(amountCents: number, commissionPercent: number): { commission: number; vendor: number } {
  const commission = Math.round((amountCents * commissionPercent) / 100);
  return { commission, vendor: amountCents - commission };
}

export interface SaleInput {
  /** The checkout session id or the provider's invoice id: a second report of the same payment records nothing. */
  sourceId: string;
  marketplaceId: string;
  licenseId: string | null;
  provider: PaymentProviderId;
  paymentRef: string | null;
  amountCents: number;
  currency: string;
}

/**
 * Records a sale in the caller's transaction (the one that issued or renewed the licence), split
 * at the rate of the vendor owning the item's namespace now. The operator's own items (no vendor)
 * keep everything; a vendor's share waits (`pending`) for a payout run.
 */
export async function recordSale(tctx: TxCtx, input: SaleInput): Promise<q.SaleRow | null> {
  const [item] = await catalog.findItemsByMarketplaceIds(tctx.tx, [input.marketplaceId], false);
  const vendorId = item ? await vq.namespaceOwner(tctx.tx, item.vendor) : undefined;
  const vendor = vendorId ? await vq.findVendor(tctx.tx, vendorId) : undefined;
  const { commission, vendor: share } = vendor
    ? split(input.amountCents, vendor.commission_percent)
    : { commission: input.amountCents, vendor: 0 };
  return q.insertSaleOnce(tctx.tx, {
    id: newId('msale'),
    kind: 'sale',
    source_id: input.sourceId,
    marketplace_id: input.marketplaceId,
    vendor_id: vendor?.id ?? null,
    license_id: input.licenseId,
    provider: input.provider,
    payment_ref: input.paymentRef,
    amount_cents: input.amountCents,
    commission_cents: commission,
    vendor_cents: share,
    currency: input.currency,
    payout_status: share > 0 ? 'pending' : 'none',
    created_at: tctx.clock.now(),
  });
}

/**
 * Records the refund of a whole sale, after the provider refunded it. The vendor's share is
 * reversed: a sale not yet paid out is simply never paid (`canceled`); one already paid out (or
 * being paid) gets a reversal of its transfer on the next payout run. Refunding twice is a 409.
 */
export async function recordRefund(ctx: Ctx, saleId: string): Promise<q.SaleRow> {
  return inTx(ctx, async (tctx) => {
    const sale = await q.lockSale(tctx.tx, saleId);
    if (!sale) throw errors.notFound('marketplace_sale_not_found', { id: saleId });
    const reversal = sale.payout_status === 'paid' || sale.payout_status === 'transferring';
    const refund = await q.insertSaleOnce(tctx.tx, {
      id: newId('msale'),
      kind: 'refund',
      source_id: `refund:${sale.id}`,
      refund_of: sale.id,
      marketplace_id: sale.marketplace_id,
      vendor_id: sale.vendor_id,
      license_id: sale.license_id,
      provider: sale.provider,
      payment_ref: sale.payment_ref,
      amount_cents: sale.amount_cents,
      commission_cents: sale.commission_cents,
      vendor_cents: sale.vendor_cents,
      currency: sale.currency,
      payout_status: reversal ? 'pending' : 'none',
      created_at: tctx.clock.now(),
    });
    if (!refund) throw errors.conflict('marketplace_sale_refunded', { id: saleId });
    if (sale.payout_status === 'pending')
      await q.setPayout(tctx.tx, sale.id, ['pending'], { payout_status: 'canceled' });
    return refund;
  });
}

export function saleJson(r: q.SaleRow) {
  return {
    id: r.id,
    kind: r.kind,
    refund_of: r.refund_of,
    source_id: r.source_id,
    marketplace_id: r.marketplace_id,
    vendor_id: r.vendor_id,
    license_id: r.license_id,
    provider: r.provider,
    amount_eur: euros(r.amount_cents),
    commission_eur: euros(r.commission_cents),
    vendor_share_eur: euros(r.vendor_cents),
    currency: r.currency,
    payout_status: r.payout_status,
    transfer_id: r.transfer_id,
    paid_out_at: r.paid_out_at,
    payout_error: r.payout_error,
    created_at: r.created_at,
  };
}

export async function listSales(ctx: Ctx, vendorId: string | undefined, query: { limit?: number; offset?: number }) {
  const page = pageOf(query);
  const [rows, count] = await Promise.all([q.listSaleRows(ctx.db, vendorId, page), q.countSales(ctx.db, vendorId)]);
  return { sales: rows.map(saleJson), count, ...page };
}

/** The payouts ledger: per vendor and currency, in euros. */
export async function ledger(ctx: Ctx, vendorId?: string) {
  const rows = await q.ledgerTotals(ctx.db, vendorId);
  return {
    payouts: rows.map((r) => ({
      vendor_id: r.vendor_id,
      currency: r.currency,
      sales_eur: euros(r.sales),
      refunds_eur: euros(r.refunds),
      commission_eur: euros(r.commission),
      vendor_share_eur: euros(r.vendor_share),
      paid_out_eur: euros(r.paid_out),
      owed_eur: euros(r.owed),
    })),
  };
}
