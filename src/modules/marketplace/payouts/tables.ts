import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../../platform/db/columns.ts';
import type { PaymentProviderId } from '../sales/tables.ts';

export type SaleKind = 'sale' | 'refund';
/**
 * `pending`: owed to the vendor; `transferring`: claimed by a payout run, the transfer asked for
 * (a run after a crash asks again with the same idempotency key); `paid`; `none`: nothing to move
 * (no vendor, no payout account's share, or a refund of a sale never paid out); `canceled`: a sale
 * refunded before it was paid out.
 */
export type PayoutStatus = 'pending' | 'transferring' | 'paid' | 'none' | 'canceled';

/**
 * The sales ledger (payouts/): one row per sale (a paid checkout, a paid renewal) and per refund,
 * each split into the marketplace's commission and the vendor's share at the vendor's rate of
 * that moment. Rows are written once; only their payout columns move.
 */
export const marketplaceSales = pgTable(
  'marketplace_sales',
  {
    /** `msale_…`: also the transfer's idempotency key, so one sale is never paid out twice. */
    id: idColumn(),
    kind: text('kind').$type<SaleKind>().notNull(),
    /** What made it, unique: the checkout session id, the provider's invoice id, or `refund:<sale id>`. */
    source_id: text('source_id').notNull(),
    /** A refund's sale. */
    refund_of: text('refund_of'),
    marketplace_id: text('marketplace_id').notNull(),
    /** The vendor owning the item's namespace at the time; null for the operator's own items. */
    vendor_id: text('vendor_id'),
    license_id: text('license_id'),
    provider: text('provider').$type<PaymentProviderId>().notNull(),
    /** The provider's payment (Stripe's `pi_…`) when known: what a refund refunds. */
    payment_ref: text('payment_ref'),
    /** Positive for both kinds; the kind says which way the money went. */
    amount_cents: integer('amount_cents').notNull(),
    commission_cents: integer('commission_cents').notNull(),
    vendor_cents: integer('vendor_cents').notNull(),
    currency: text('currency').notNull(),
    payout_status: text('payout_status').$type<PayoutStatus>().notNull(),
    /** Stripe's `tr_…` (a sale) or `trr_…` (a refund's reversal). */
    transfer_id: text('transfer_id'),
    paid_out_at: ts('paid_out_at'),
    payout_error: text('payout_error'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('marketplace_sales_source_idx').on(t.source_id),
    index('marketplace_sales_vendor_idx').on(t.vendor_id, t.id),
    index('marketplace_sales_payout_idx').on(t.id).where(sql`payout_status in ('pending', 'transferring')`),
  ],
);

/**
 * The scheduled payout runs (payouts/payout-job.ts), one row per period (its start, e.g. the day):
 * the instance holding the run and until when (a lease it renews while it works), and what it did.
 * A run whose instance died (`finished_at` null, lease run out) is taken over by the next tick of
 * any instance; the sales' own payout states make the work itself resumable.
 */
export const marketplacePayoutRuns = pgTable('marketplace_payout_runs', {
  period_start: ts('period_start').primaryKey(),
  owner: text('owner').notNull(),
  lease_until: ts('lease_until').notNull(),
  started_at: ts('started_at').notNull(),
  finished_at: ts('finished_at'),
  /** How many times a run of this period was started (more than one: taken over after a crash). */
  attempts: integer('attempts').notNull().default(1),
  transferred: integer('transferred').notNull().default(0),
  reversed: integer('reversed').notNull().default(0),
  waiting: integer('waiting').notNull().default(0),
});
