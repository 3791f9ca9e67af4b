import type { Executor } from '../../platform/db/database.ts';
import { insertRows } from '../../platform/db/insert-row.ts';
import { newId } from '../../platform/ids.ts';
import { paymentCaptures, refunds } from './ledger-tables.ts';
import type { PaymentRow } from './queries.ts';
import { SYSTEM_PROVIDER } from './schema.ts';
import { paymentCollections, payments } from './tables.ts';

/** How an imported order was paid, for the whole of its total (authorized: not captured yet, e.g. paid on invoice). */
export type ImportedPaymentState = 'authorized' | 'captured' | 'refunded' | 'canceled';

export interface ImportedPayment {
  orderId: string;
  currency: string;
  amount: number;
  state: ImportedPaymentState;
  /** When it happened: the order's own time. */
  at: Date;
  /** Who imported it (the ledger's `created_by`). */
  by: string | null;
}

/** The rows of one imported payment; its `payment` is what the order's payment_status derives from. */
export interface ImportedLedger {
  collection: typeof paymentCollections.$inferInsert;
  payment: PaymentRow;
  capture: typeof paymentCaptures.$inferInsert | null;
  refund: typeof refunds.$inferInsert | null;
}

/**
 * The ledger of an order paid elsewhere, as the order desk would have left it: a collection of
 * the order's own, one payment by the shop's own provider (`pp_system_default`: no provider is
 * asked anything later; a refund of it is the shop's own business), and its capture and refund,
 * so the order's payment_status derives from them as from any other order's.
 */
export function importedLedger(p: ImportedPayment): ImportedLedger {
  const collection = newId('pay_col');
  const paid = p.state === 'captured' || p.state === 'refunded';
  const stamps = { created_at: p.at, updated_at: p.at };
  const payment: PaymentRow = {
    id: newId('pay'),
    order_id: p.orderId,
    payment_collection_id: collection,
    payment_session_id: null,
    provider_id: SYSTEM_PROVIDER,
    amount: p.amount,
    currency_code: p.currency,
    status: p.state,
    captured_amount: paid ? p.amount : 0,
    refunded_amount: p.state === 'refunded' ? p.amount : 0,
    captured_at: paid ? p.at : null,
    canceled_at: p.state === 'canceled' ? p.at : null,
    data: { imported: true },
    ...stamps,
  };
  return {
    collection: {
      id: collection,
      cart_id: null,
      order_id: p.orderId,
      currency_code: p.currency,
      amount: p.amount,
      status: paid ? 'completed' : p.state === 'authorized' ? 'authorized' : 'canceled',
      ...stamps,
    },
    payment,
    capture: paid
      ? { id: newId('capt'), payment_id: payment.id, amount: p.amount, created_by: p.by, created_at: p.at }
      : null,
    refund:
      p.state === 'refunded'
        ? {
            id: newId('ref'),
            payment_id: payment.id,
            order_id: p.orderId,
            amount: p.amount,
            reason: null,
            note: 'imported',
            refund_reason_id: null,
            created_by: p.by,
            created_at: p.at,
          }
        : null,
  };
}

/** The ledgers' rows, four statements however many there are. */
export async function writeImportedLedgers(db: Executor, ledgers: ImportedLedger[]): Promise<void> {
  const present = <T>(xs: (T | null)[]) => xs.filter((x): x is T => x !== null);
  await insertRows(
    db,
    paymentCollections,
    ledgers.map((l) => l.collection),
  );
  await insertRows(
    db,
    payments,
    ledgers.map((l) => l.payment),
  );
  await insertRows(db, paymentCaptures, present(ledgers.map((l) => l.capture)));
  await insertRows(db, refunds, present(ledgers.map((l) => l.refund)));
}
