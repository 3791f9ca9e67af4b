import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../../platform/http/schema-types.ts';

export const Subscription = Type.Object({
  id: Type.String({ description: '`msub_…`' }),
  license_id: Type.String(),
  marketplace_id: Type.String(),
  instance_id: Type.String(),
  billing: Type.Unsafe<string>({ type: 'string', enum: ['monthly', 'yearly'] }),
  provider: Type.String(),
  provider_subscription_id: Type.String({ description: "Stripe's `sub_…`" }),
  status: Type.Unsafe<string>({
    type: 'string',
    enum: ['active', 'past_due', 'canceled'],
    description: 'past_due: a renewal failed, the provider retries; the licence runs to its period end',
  }),
  current_period_end: Timestamp,
  cancel_at_period_end: Type.Boolean(),
  canceled_at: NullableTimestamp,
  canceled_by: Nullable(Type.String({ description: '`shop`, `operator`, a vendor id, or `provider`' })),
  last_payment_failed_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const SubscriptionEnvelope = Type.Object({ subscription: Subscription });
export const SubscriptionList = listEnvelope('subscriptions', Subscription);
export const SubscriptionsQuery = Type.Object(pageQuery(20));
