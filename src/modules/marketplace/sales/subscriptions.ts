import { inTx, type Ctx, type TxCtx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { pageOf } from '../../../platform/http/pagination.ts';
import { newId } from '../../../platform/ids.ts';
import * as lq from '../licenses/queries.ts';
import { recordSale } from '../payouts/ledger.ts';
import type { Billing } from '../catalog/tables.ts';
import type { PaymentProviderId } from './tables.ts';
import type { CheckoutRow } from './queries.ts';
import type { StripeMoney } from './stripe-money.ts';
import type { StripeNotice } from './stripe-provider.ts';
import * as q from './subscription-queries.ts';

const DAY_MS = 24 * 3_600_000;
/** A one-time purchase licenses the item this long. */
export const ONE_TIME_DAYS = 365;
/**
 * A recurring licence runs a day past its paid period: Stripe charges the renewal at the period's
 * end and reports it some minutes to hours later, and a shop must not lose its plugin meanwhile.
 */
export const RENEWAL_GRACE_MS = DAY_MS;

/** `from` plus one calendar month or year (UTC), clamped to the month's last day as Stripe's billing anchor is. */
function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** The end of the period that starts at `from` (a recurring one in whole seconds, as Stripe counts them). */
export function periodEnd(from: Date, billing: Billing): Date {
  if (billing === 'one_time') return new Date(from.getTime() + ONE_TIME_DAYS * DAY_MS);
  const start = new Date(Math.floor(from.getTime() / 1000) * 1000);
  return addMonths(start, billing === 'monthly' ? 1 : 12);
}

/** A new licence's expires_at: the paid period (and, when recurring, the renewal grace). */
export function licenceEnd(now: Date, billing: Billing): Date {
  const end = periodEnd(now, billing);
  return billing === 'one_time' ? end : new Date(end.getTime() + RENEWAL_GRACE_MS);
}

/** In the checkout's completing transaction: the provider's subscription behind the new licence. */
export async function startSubscription(
  tctx: TxCtx,
  s: { license: lq.LicenseRow; checkout: CheckoutRow; provider: PaymentProviderId; id: string; now: Date },
): Promise<void> {
  if (s.checkout.billing === 'one_time') return;
  await q.insertSubscriptionOnce(tctx.tx, {
    id: newId('msub'),
    license_id: s.license.id,
    marketplace_id: s.checkout.marketplace_id,
    instance_id: s.checkout.instance_id,
    billing: s.checkout.billing,
    provider: s.provider,
    provider_subscription_id: s.id,
    status: 'active',
    current_period_end: periodEnd(s.now, s.checkout.billing),
    created_at: s.now,
    updated_at: s.now,
  });
}

type InvoiceNotice = Extract<StripeNotice, { kind: 'invoice_paid' | 'invoice_failed' }>;

/**
 * A paid invoice: the licence runs to the invoice's period end (plus the grace), and a renewal
 * (not the first invoice, which the checkout already recorded) is a sale in the ledger. Repeated
 * deliveries change nothing more: the licence only moves forward, the sale is unique per invoice.
 */
export async function invoicePaid(ctx: Ctx, notice: InvoiceNotice): Promise<void> {
  await inTx(ctx, async (tctx) => {
    const sub = await q.lockByProviderId(tctx.tx, notice.subscriptionId);
    if (!sub) {
      // The first invoice may arrive before the checkout completion that records the subscription.
      tctx.log.info(
        { subscription: notice.subscriptionId },
        'Stripe invoice for no subscription of ours (yet); ignored',
      );
      return;
    }
    const now = tctx.clock.now();
    const end = notice.periodEnd ?? periodEnd(sub.current_period_end, sub.billing);
    const later = end.getTime() > sub.current_period_end.getTime() ? end : sub.current_period_end;
    await q.updateSubscription(tctx.tx, sub.id, {
      status: sub.status === 'canceled' ? 'canceled' : 'active',
      current_period_end: later,
      last_payment_failed_at: null,
      updated_at: now,
    });
    const license = await lq.findLicenseById(tctx.tx, sub.license_id);
    const until = new Date(later.getTime() + RENEWAL_GRACE_MS);
    if (license && until.getTime() > license.expires_at.getTime()) {
      const renewal = notice.billingReason !== 'subscription_create';
      await lq.updateLicense(tctx.tx, license.id, {
        expires_at: until,
        ...(renewal ? { renewed_at: now } : {}),
        updated_at: now,
      });
    }
    if (notice.billingReason === 'subscription_create') return;
    await recordSale(tctx, {
      sourceId: notice.invoiceId,
      marketplaceId: sub.marketplace_id,
      licenseId: sub.license_id,
      provider: 'stripe',
      paymentRef: null,
      amountCents: notice.amountCents,
      currency: notice.currency,
    });
  });
}

/**
 * A renewal that could not be charged: the subscription is `past_due` (Stripe retries on its
 * schedule); the licence is left alone, valid until the period it paid for ends, then `expired`.
 */
export async function invoiceFailed(ctx: Ctx, notice: InvoiceNotice): Promise<void> {
  await inTx(ctx, async (tctx) => {
    const sub = await q.lockByProviderId(tctx.tx, notice.subscriptionId);
    if (!sub || sub.status === 'canceled') return;
    const now = tctx.clock.now();
    await q.updateSubscription(tctx.tx, sub.id, { status: 'past_due', last_payment_failed_at: now, updated_at: now });
  });
}

const STATUS: Record<string, q.SubscriptionRow['status']> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  incomplete: 'past_due',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
};

/** Stripe changed or ended the subscription (a cancellation made in its dashboard, the end after failed retries). */
export async function subscriptionChanged(
  ctx: Ctx,
  notice: Extract<StripeNotice, { kind: 'subscription_changed' }>,
): Promise<void> {
  await inTx(ctx, async (tctx) => {
    const sub = await q.lockByProviderId(tctx.tx, notice.subscriptionId);
    if (!sub) return;
    const now = tctx.clock.now();
    const status = STATUS[notice.status] ?? sub.status;
    const ended = status === 'canceled' && sub.status !== 'canceled';
    await q.updateSubscription(tctx.tx, sub.id, {
      status: sub.status === 'canceled' ? 'canceled' : status,
      cancel_at_period_end: notice.cancelAtPeriodEnd || sub.cancel_at_period_end,
      ...(ended || (notice.cancelAtPeriodEnd && !sub.canceled_at)
        ? { canceled_at: sub.canceled_at ?? notice.canceledAt ?? now, canceled_by: sub.canceled_by ?? 'provider' }
        : {}),
      updated_at: now,
    });
  });
}

export function subscriptionJson(r: q.SubscriptionRow) {
  return {
    id: r.id,
    license_id: r.license_id,
    marketplace_id: r.marketplace_id,
    instance_id: r.instance_id,
    billing: r.billing,
    provider: r.provider,
    provider_subscription_id: r.provider_subscription_id,
    status: r.status,
    current_period_end: r.current_period_end,
    cancel_at_period_end: r.cancel_at_period_end,
    canceled_at: r.canceled_at,
    canceled_by: r.canceled_by,
    last_payment_failed_at: r.last_payment_failed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/**
 * Cancels at the period's end: the provider stops charging, the licence stays valid for what was
 * paid, then expires. Cancelling again answers the same; an ended subscription is a 400.
 */
async function cancel(ctx: Ctx, money: StripeMoney | null, sub: q.SubscriptionRow, by: string) {
  if (sub.status === 'canceled') throw errors.notAllowed('marketplace_subscription_ended', { id: sub.id });
  if (sub.cancel_at_period_end) return subscriptionJson(sub);
  if (sub.provider === 'stripe') {
    if (!money) throw errors.notAllowed('marketplace_money_needs_stripe');
    await money.cancelAtPeriodEnd(sub.provider_subscription_id, `cancel_${sub.id}`);
  }
  const now = ctx.clock.now();
  const row = await q.updateSubscription(ctx.db, sub.id, {
    cancel_at_period_end: true,
    canceled_at: now,
    canceled_by: by,
    updated_at: now,
  });
  return subscriptionJson(row!);
}

/** The vendor (its namespaces) or the operator (null) cancels; another vendor's subscription is a 404. */
export async function cancelSubscription(
  ctx: Ctx,
  money: StripeMoney | null,
  id: string,
  namespaces: string[] | null,
  by: string,
) {
  const sub = await q.findSubscription(ctx.db, id);
  const ns = sub?.marketplace_id.split('/')[0].slice(1);
  if (!sub || (namespaces && !namespaces.includes(ns!)))
    throw errors.notFound('marketplace_subscription_not_found', { id });
  return cancel(ctx, money, sub, by);
}

/** The shop cancels its own: it proves it with the licence key and its instance token, as for verify. */
export async function cancelFromShop(
  ctx: Ctx,
  money: StripeMoney | null,
  input: { license_key: string; marketplace_id: string; instance_id: string },
) {
  const license = await lq.findLicenseByKey(ctx.db, input.license_key);
  const sub =
    license && license.marketplace_id === input.marketplace_id && license.instance_id === input.instance_id
      ? await q.findByLicense(ctx.db, license.id)
      : undefined;
  if (!sub) throw errors.notFound('marketplace_license_without_subscription', { marketplace_id: input.marketplace_id });
  return cancel(ctx, money, sub, 'shop');
}

export async function listSubscriptions(
  ctx: Ctx,
  namespaces: string[] | null,
  query: { limit?: number; offset?: number },
) {
  const page = pageOf(query);
  const [rows, count] = await Promise.all([
    q.listSubscriptionRows(ctx.db, namespaces, page),
    q.countSubscriptions(ctx.db, namespaces),
  ]);
  return { subscriptions: rows.map(subscriptionJson), count, ...page };
}
