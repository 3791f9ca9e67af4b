import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

export { BatchLinkBody } from '../sales-channels/schema.ts';

const KeyType = Type.Enum(['publishable', 'secret']);

const KeySalesChannel = Type.Object({ id: Type.String(), name: Type.String() });

export const ApiKey = Type.Object({
  id: Type.String(),
  title: Type.String(),
  token: Type.String({
    description: 'a secret key shows its full token only in the create response, then the redacted form',
  }),
  redacted: Type.String(),
  type: KeyType,
  last_used_at: NullableTimestamp,
  created_by: Nullable(Type.String()),
  revoked_at: NullableTimestamp,
  revoked_by: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  sales_channels: Type.Array(KeySalesChannel),
});

export const ApiKeyEnvelope = Type.Object({ api_key: ApiKey });
export const ApiKeyList = listEnvelope('api_keys', ApiKey);

/** `GET /admin/publishable-api-keys`: publishable keys only, revoked ones included. */
export const PublishableApiKey = Type.Object({
  id: Type.String(),
  title: Type.String(),
  token: Type.String(),
  revoked_at: NullableTimestamp,
  sales_channels: Type.Array(KeySalesChannel),
});
export const PublishableApiKeyList = listEnvelope('publishable_api_keys', PublishableApiKey);

const title = Type.String({ minLength: 1, maxLength: 255 });

export const CreateApiKeyBody = Type.Object({ title, type: KeyType }, { additionalProperties: false });

export const UpdateApiKeyBody = Type.Object({ title }, { additionalProperties: false });

export const RevokeApiKeyBody = Type.Object(
  {
    // Bounded so that now + revoke_in stays a valid date (about a century).
    revoke_in: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 3_153_600_000,
        description: 'seconds until the key stops working; 0 or absent: now',
      }),
    ),
  },
  { additionalProperties: false },
);

// A single `id=` value is coerced to a one-element array by the validator; commas also split.
const textList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 });
const instant = Type.Optional(Type.String({ format: 'date-time' }));

/** Medusa's operator form, parsed by qs: `revoked_at[$gte]=2026-01-01T00:00:00Z`. */
const RevokedAtFilter = Type.Object(
  { $gt: instant, $gte: instant, $lt: instant, $lte: instant },
  { additionalProperties: false, description: 'revocation time bounds ($gt, $gte, $lt, $lte)' },
);

export const PublishableApiKeyQuery = Type.Object({
  ...pageQuery(20),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'matches the title, case-insensitively' })),
});

export const ApiKeyQuery = Type.Object({
  ...PublishableApiKeyQuery.properties,
  id: Type.Optional(textList),
  title: Type.Optional(textList),
  token: Type.Optional(textList),
  type: Type.Optional(KeyType),
  revoked_at: Type.Optional(RevokedAtFilter),
});
