import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

const MarketplaceIdField = Type.String({ minLength: 1, maxLength: 200, description: '`@<vendor>/<id>`' });
const InstanceIdField = Type.String({ minLength: 1, maxLength: 200, description: "the shop's opaque instance id" });

export const CheckoutBody = Type.Object(
  {
    marketplace_id: MarketplaceIdField,
    version: Type.String({ minLength: 1, maxLength: 50 }),
    customer_email: Type.String({ format: 'email', maxLength: 320 }),
    instance_id: InstanceIdField,
    callback_url: Type.Optional(Type.String({ maxLength: 2000, description: "the shop's base URL (http or https); license-issued is POSTed to {callback_url}/admin/marketplace/license-issued" })),
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

export const VerifyBody = Type.Object(
  {
    license_key: Type.String({ minLength: 1, maxLength: 200 }),
    marketplace_id: MarketplaceIdField,
    instance_id: InstanceIdField,
  },
  { additionalProperties: false },
);

export const VerifyResponse = Type.Object({
  valid: Type.Boolean(),
  reason: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['unknown', 'revoked', 'wrong_instance', 'expired'], description: 'only when valid is false' })),
  expires_at: Type.Optional(Timestamp),
  tier: Type.Optional(Type.String()),
  renewed_at: Type.Optional(NullableTimestamp),
  token: Type.Optional(Type.String({ description: 'compact JWS (EdDSA, kid = key_id): marketplace_id, instance_id, tier, exp' })),
});

export const StripeReceived = Type.Object({ received: Type.Literal(true) });

/** The raw Stripe event (its signature is checked over these exact bytes). */
export const StripeEventBody = Type.Unsafe<Buffer>({ type: 'object', description: 'a Stripe event, signed with Stripe-Signature' });

export const HtmlPage = Type.Unsafe<string>({ type: 'string', description: 'text/html' });

export const License = Type.Object({
  id: Type.String({ description: '`mlic_…`' }),
  key: Type.String({ description: '`lic_` + 26 Crockford base32 characters' }),
  marketplace_id: Type.String(),
  instance_id: Type.String(),
  tier: Type.String(),
  status: Type.Unsafe<string>({ type: 'string', enum: ['active', 'expired', 'revoked'] }),
  purchased_by: Type.String(),
  expires_at: Timestamp,
  renewed_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
  checkout_session_id: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const LicenseEnvelope = Type.Object({ license: License });
export const LicenseList = listEnvelope('licenses', License);

export const LicensesQuery = Type.Object({
  ...pageQuery(20),
  marketplace_id: Type.Optional(Type.String({ maxLength: 200 })),
});

export const RenewBody = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650, description: 'default 365' })) },
  { additionalProperties: false },
);
