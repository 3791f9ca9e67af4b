import type { Ctx } from '../../../platform/context.ts';
import { completeStripePayment } from './checkout.ts';
import type { StripeNotice } from './stripe-provider.ts';
import { invoiceFailed, invoicePaid, subscriptionChanged } from './subscriptions.ts';

/** Acts on a verified Stripe event: a paid checkout, a subscription's invoice, a subscription's change. */
export async function onStripeNotice(ctx: Ctx, notice: StripeNotice): Promise<void> {
  switch (notice.kind) {
    case 'checkout_paid':
      return completeStripePayment(ctx, notice);
    case 'invoice_paid':
      return invoicePaid(ctx, notice);
    case 'invoice_failed':
      return invoiceFailed(ctx, notice);
    case 'subscription_changed':
      return subscriptionChanged(ctx, notice);
  }
}
