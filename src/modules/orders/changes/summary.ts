import type { AdminPaymentCollectionView } from '../../payments/ledger-schema.ts';
import type { OrderRow } from '../queries.ts';
import type { SummaryRow } from './queries.ts';
import type { OrderSummaryView, OrderTransactionView } from './schema.ts';

/**
 * The order's money with Medusa's meanings: `paid_total` is everything captured and
 * `refunded_total` everything refunded, each counted once; `transaction_total` is their
 * difference; `current_order_total` is what the order is worth now (its lines and shipping, less
 * items returned, plus return shipping); `pending_difference` is what the shopper still owes
 * (positive) or is owed (negative).
 */

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Captures (positive) and refunds (negative), oldest first: Medusa's order transactions. */
export function orderTransactions(order: OrderRow, pcs: AdminPaymentCollectionView[]): OrderTransactionView[] {
  const payments = pcs.flatMap((pc) => pc.payments);
  const base = { order_id: order.id, currency_code: order.currency_code };
  const list: OrderTransactionView[] = [
    ...payments.flatMap((p) =>
      p.captures.map((c) => ({
        ...base,
        id: c.id,
        amount: c.amount,
        reference: 'capture' as const,
        reference_id: c.id,
        created_at: c.created_at,
        updated_at: c.created_at,
      })),
    ),
    ...payments.flatMap((p) =>
      p.refunds.map((r) => ({
        ...base,
        id: r.id,
        amount: -r.amount,
        reference: 'refund' as const,
        reference_id: r.id,
        created_at: r.created_at,
        updated_at: r.created_at,
      })),
    ),
  ];
  return list.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime());
}

/**
 * `pendingDelta`: what an open change would add (a preview), 0 for the order as it stands.
 * `creditLineTotal`: the order's credit lines, summed with their signs. As Medusa's order change
 * processing counts them, they come off `current_order_total` (a positive line lowers what the
 * shopper owes, a negative one what they are owed), so `pending_difference` moves by as much.
 */
export function orderSummary(
  order: OrderRow,
  pcs: AdminPaymentCollectionView[],
  row: SummaryRow | undefined,
  pendingDelta = 0,
  creditLineTotal = 0,
): OrderSummaryView {
  const payments = pcs.flatMap((pc) => pc.payments);
  const paid = sum(payments.map((p) => p.captured_amount));
  const refunded = sum(payments.map((p) => p.refunded_amount));
  const current = order.total + (row?.adjustment_total ?? 0) + pendingDelta - creditLineTotal;
  return {
    authorized_total: sum(payments.map((p) => p.amount)),
    captured_total: paid,
    paid_total: paid,
    refunded_total: refunded,
    transaction_total: paid - refunded,
    original_order_total: row?.original_order_total ?? order.total,
    current_order_total: current,
    accounting_total: current,
    credit_line_total: creditLineTotal,
    // A canceled order owes nothing either way: cancel refunded what was captured.
    pending_difference: order.status === 'canceled' ? 0 : current - (paid - refunded),
  };
}

/**
 * An order's totals with its credit lines, as Medusa's totals count them wherever an order is
 * shown (admin and store, page and list): `sum`, the lines' signed sum (the summary's);
 * `credit_line_total`, that sum when positive (a negative sum is never added to `total`);
 * `credit_line_subtotal` and `credit_line_tax_total`, its parts: Medusa has no tax rate for a
 * credit line yet (its totals use 0 %), so the subtotal is the total and the tax 0; and `total`,
 * the lines' and methods' total less `credit_line_total`.
 */
export function creditedTotals(total: number, lines: { amount: number }[]) {
  const sum = lines.reduce((s, l) => s + l.amount, 0);
  const credit_line_total = Math.max(sum, 0);
  return {
    sum,
    credit_line_total,
    credit_line_subtotal: credit_line_total,
    credit_line_tax_total: 0,
    total: total - credit_line_total,
  };
}
