import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../../platform/http/schema-types.ts';
import { MarketplaceIdField } from '../catalog/schema.ts';
import { InstanceIdField } from '../licenses/schema.ts';

export const CheckoutBody = Type.Object(
  {
    marketplace_id: MarketplaceIdField,
    version: Type.String({ minLength: 1, maxLength: 50 }),
    customer_email: Type.String({ format: 'email', maxLength: 320 }),
    instance_id: InstanceIdField,
    callback_url: Type.Optional(
      Type.String({
        maxLength: 2000,
        description:
          "the shop's base URL (http or https); license-issued is POSTed to {callback_url}/admin/marketplace/license-issued",
      }),
    ),
  },
  { additionalProperties: false },
);

export const CheckoutCreated = Type.Object({
  id: Type.String({ description: '`mcs_…`' }),
  url: Type.String({ description: "the payment provider's hosted checkout page" }),
  expires_at: Timestamp,
});

const CheckoutStatus = Type.Unsafe<string>({ type: 'string', enum: ['open', 'paid', 'expired'] });

export const CheckoutSession = Type.Object({
  id: Type.String(),
  status: CheckoutStatus,
  marketplace_id: Type.String(),
  version: Type.String(),
  price_eur: Type.Number(),
  currency: Type.String(),
  url: Nullable(Type.String()),
  expires_at: Timestamp,
  paid_at: NullableTimestamp,
  license_key: Nullable(Type.String({ description: 'set once paid' })),
});

export const StripeReceived = Type.Object({ received: Type.Literal(true) });

/** The raw Stripe event (its signature is checked over these exact bytes). */
export const StripeEventBody = Type.Unsafe<Buffer>({
  type: 'object',
  description: 'a Stripe event, signed with Stripe-Signature',
});

export const HtmlPage = Type.Unsafe<string>({ type: 'string', description: 'text/html' });

export const CheckoutSessionsQuery = Type.Object({ ...pageQuery(20) });

export const CheckoutSessionList = listEnvelope(
  'checkout_sessions',
  Type.Object({
    id: Type.String(),
    status: CheckoutStatus,
    marketplace_id: Type.String(),
    version: Type.String(),
    customer_email: Type.String(),
    provider: Type.String(),
    price_eur: Type.Number(),
    currency: Type.String(),
    license_id: Nullable(Type.String()),
    expires_at: Timestamp,
    paid_at: NullableTimestamp,
    created_at: Timestamp,
  }),
);
