import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../../platform/db/columns.ts';
import type { Billing } from '../catalog/tables.ts';

export type CheckoutStatus = 'open' | 'paid' | 'expired';
export type PaymentProviderId = 'test' | 'stripe';

/** A paid purchase in progress: one item version for one shop instance, through one payment provider. */
export const marketplaceCheckoutSessions = pgTable(
  'marketplace_checkout_sessions',
  {
    /** `mcs_…`; whoever holds it can read the license key once paid, so it is not guessable (see sales/checkout.ts). */
    id: idColumn(),
    marketplace_id: text('marketplace_id').notNull(),
    version: text('version').notNull(),
    customer_email: text('customer_email').notNull(),
    instance_id: text('instance_id').notNull(),
    /** The shop's base URL; license-issued is POSTed to `{callback_url}/admin/marketplace/license-issued`. */
    callback_url: text('callback_url'),
    provider: text('provider').$type<PaymentProviderId>().notNull(),
    provider_session_id: text('provider_session_id'),
    /** Where the customer pays (the provider's hosted page); null until the provider answered. */
    url: text('url'),
    /** `expired` is stored only when the provider could not create its session; an open one past expires_at reads as expired. */
    status: text('status').$type<CheckoutStatus>().notNull(),
    /** Price when the session was created, in euro cents. */
    amount_cents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** The item's billing when the session was created: a recurring one opens a subscription. */
    billing: text('billing').$type<Billing>().notNull().default('one_time'),
    license_id: text('license_id'),
    expires_at: ts('expires_at').notNull(),
    paid_at: ts('paid_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('marketplace_checkout_sessions_provider_idx').on(t.provider, t.provider_session_id)],
);

export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';

/**
 * A recurring licence (sales/subscriptions.ts): the payment provider's subscription behind it.
 * Each paid renewal moves the licence's expires_at to the new period's end; a failed one leaves it
 * until the current period ends.
 */
export const marketplaceSubscriptions = pgTable(
  'marketplace_subscriptions',
  {
    /** `msub_…`. */
    id: idColumn(),
    license_id: text('license_id').notNull(),
    marketplace_id: text('marketplace_id').notNull(),
    instance_id: text('instance_id').notNull(),
    billing: text('billing').$type<Exclude<Billing, 'one_time'>>().notNull(),
    provider: text('provider').$type<PaymentProviderId>().notNull(),
    /** Stripe's `sub_…`. */
    provider_subscription_id: text('provider_subscription_id').notNull(),
    status: text('status').$type<SubscriptionStatus>().notNull(),
    current_period_end: ts('current_period_end').notNull(),
    /** Cancelled by the shop, the vendor or the operator: runs to the period's end, then stops renewing. */
    cancel_at_period_end: boolean('cancel_at_period_end').notNull().default(false),
    canceled_at: ts('canceled_at'),
    /** `shop`, `operator`, a vendor id, or `provider` (the provider ended it, e.g. after failed renewals). */
    canceled_by: text('canceled_by'),
    last_payment_failed_at: ts('last_payment_failed_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('marketplace_subscriptions_provider_idx').on(t.provider, t.provider_subscription_id),
    uniqueIndex('marketplace_subscriptions_license_idx').on(t.license_id),
    index('marketplace_subscriptions_item_idx').on(t.marketplace_id, t.id),
  ],
);
