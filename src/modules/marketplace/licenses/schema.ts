import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../../platform/http/schema-types.ts';
import { MarketplaceIdField } from '../catalog/schema.ts';

/** The instance token a shop sends (checkout, verify): licenses bind to it. */
export const InstanceIdField = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "the shop's opaque instance id",
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
  reason: Type.Optional(
    Type.Unsafe<string>({
      type: 'string',
      enum: ['unknown', 'revoked', 'wrong_instance', 'expired'],
      description: 'only when valid is false',
    }),
  ),
  expires_at: Type.Optional(Timestamp),
  tier: Type.Optional(Type.String()),
  renewed_at: Type.Optional(NullableTimestamp),
  token: Type.Optional(
    Type.String({ description: 'compact JWS (EdDSA, kid = key_id): marketplace_id, instance_id, tier, exp' }),
  ),
});

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
