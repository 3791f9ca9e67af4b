import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../../platform/http/schema-types.ts';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Email = Type.String({ format: 'email', maxLength: 320 });
const Namespace = Type.String({
  minLength: 2,
  maxLength: 65,
  description: '`@acme`: the manifest `vendor` it publishes as',
});
const Scope = Type.Union([Type.Literal('read'), Type.Literal('publish'), Type.Literal('tokens')]);

export const SignUpBody = Type.Object(
  { name: Name, email: Email, namespace: Namespace },
  { additionalProperties: false },
);
export const SignUpResponse = Type.Object({ status: Type.Literal('verification_sent') });
export const VerifyBody = Type.Object(
  { token: Type.String({ minLength: 10, maxLength: 200 }) },
  { additionalProperties: false },
);
export const InviteBody = Type.Object(
  { name: Name, email: Email, namespaces: Type.Array(Namespace, { minItems: 1, maxItems: 20 }) },
  { additionalProperties: false },
);
export const NamespaceBody = Type.Object({ namespace: Namespace }, { additionalProperties: false });
export const TokenBody = Type.Object(
  { name: Name, scopes: Type.Array(Scope, { minItems: 1, maxItems: 3 }) },
  { additionalProperties: false },
);
export const TokenParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const VendorTokenParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  token_id: Type.String({ minLength: 1, maxLength: 200 }),
});
export const VendorsQuery = Type.Object(pageQuery(20));

export const Vendor = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  status: Type.Union([
    Type.Literal('unverified'),
    Type.Literal('invited'),
    Type.Literal('active'),
    Type.Literal('suspended'),
  ]),
  namespaces: Type.Array(Type.String()),
  trusted: Type.Boolean(),
  commission_percent: Type.Integer({ description: "the marketplace's share of each sale, in percent" }),
  payout_account: Nullable(Type.String({ description: 'the Stripe connected account (`acct_…`) paid by transfers' })),
  verified_at: NullableTimestamp,
  created_at: Timestamp,
});
export const PayoutSettingsBody = Type.Object(
  {
    commission_percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    payout_account: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  },
  { additionalProperties: false },
);
export const VendorEnvelope = Type.Object({ vendor: Vendor });
export const VendorList = listEnvelope('vendors', Vendor);

export const VendorToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Scope),
  last_used_at: NullableTimestamp,
  revoked_at: NullableTimestamp,
  created_at: Timestamp,
});
export const IssuedToken = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Scope),
  token: Type.String({ description: 'shown once: only its sha256 is kept' }),
  created_at: Timestamp,
});
export const TokenEnvelope = Type.Object({ token: VendorToken });
export const IssuedEnvelope = Type.Object({ token: IssuedToken });
export const TokenList = Type.Object({ tokens: Type.Array(VendorToken) });
export const VerifiedResponse = Type.Object({ vendor: Vendor, token: IssuedToken });
