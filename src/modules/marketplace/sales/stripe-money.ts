import type Stripe from 'stripe';
import type { StripeConfig } from '../../../platform/config.ts';
import { appError } from '../../../platform/http/errors.ts';
import { stripeClient } from './stripe-provider.ts';

/**
 * Money that moves after the sale, through Stripe: cancelling a subscription, refunding a payment,
 * paying a vendor's share to its connected account (a transfer) and taking it back (a reversal).
 * Every call carries an idempotency key derived from our own row, so a retry (or a run after a
 * crash) asks Stripe for the same thing again and gets the first answer back, never a second one.
 */
export interface StripeMoney {
  cancelAtPeriodEnd(subscriptionId: string, key: string): Promise<void>;
  /** Refunds a payment intent, or the payment of an invoice (looked up through its invoice payments). */
  refund(ref: { paymentIntent: string } | { invoice: string }, amountCents: number, key: string): Promise<string>;
  transfer(input: {
    amountCents: number;
    currency: string;
    destination: string;
    group: string;
    key: string;
  }): Promise<string>;
  reverse(transferId: string, amountCents: number, key: string): Promise<string>;
}

function failed(action: string, err: unknown): never {
  const e = appError('marketplace_provider_failed', { action });
  e.cause = err;
  throw e;
}

export function stripeMoney(config: StripeConfig): StripeMoney {
  const stripe: Stripe = stripeClient(config);
  return {
    async cancelAtPeriodEnd(subscriptionId, key) {
      await stripe.subscriptions
        .update(subscriptionId, { cancel_at_period_end: true }, { idempotencyKey: key })
        .catch((err) => failed('cancel the subscription', err));
    },
    async refund(ref, amountCents, key) {
      let paymentIntent = 'paymentIntent' in ref ? ref.paymentIntent : null;
      if (!paymentIntent && 'invoice' in ref) {
        const payments = await stripe.invoicePayments
          .list({ invoice: ref.invoice, limit: 10 })
          .catch((err) => failed('find the payment of the invoice', err));
        const paid = payments.data.find((p) => p.status === 'paid' && p.payment.type === 'payment_intent');
        const pi = paid?.payment.payment_intent;
        paymentIntent = typeof pi === 'string' ? pi : (pi?.id ?? null);
      }
      if (!paymentIntent) failed('find the payment to refund', new Error('no payment intent'));
      const refund = await stripe.refunds
        .create({ payment_intent: paymentIntent, amount: amountCents }, { idempotencyKey: key })
        .catch((err) => failed('refund the payment', err));
      return refund.id;
    },
    async transfer({ amountCents, currency, destination, group, key }) {
      const transfer = await stripe.transfers
        .create(
          { amount: amountCents, currency, destination, transfer_group: group, metadata: { sale_id: group } },
          { idempotencyKey: key },
        )
        .catch((err) => failed('transfer the vendor share', err));
      return transfer.id;
    },
    async reverse(transferId, amountCents, key) {
      const reversal = await stripe.transfers
        .createReversal(transferId, { amount: amountCents }, { idempotencyKey: key })
        .catch((err) => failed('reverse the transfer', err));
      return reversal.id;
    },
  };
}
