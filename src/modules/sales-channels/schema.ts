import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';

export const SalesChannel = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  is_disabled: Type.Boolean(),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const SalesChannelEnvelope = Type.Object({ sales_channel: SalesChannel });
export const SalesChannelList = listEnvelope('sales_channels', SalesChannel);

const fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Nullable(Type.String({ maxLength: 2000 })),
  is_disabled: Type.Boolean(),
  metadata: Metadata,
};

export const CreateSalesChannelBody = Type.Object(
  {
    name: fields.name,
    description: Type.Optional(fields.description),
    is_disabled: Type.Optional(fields.is_disabled),
    metadata: Type.Optional(fields.metadata),
  },
  { additionalProperties: false },
);

export const UpdateSalesChannelBody = Type.Object(
  {
    name: Type.Optional(fields.name),
    description: Type.Optional(fields.description),
    is_disabled: Type.Optional(fields.is_disabled),
    metadata: Type.Optional(fields.metadata),
  },
  { additionalProperties: false },
);

// A single `id=` value is coerced to a one-element array by the validator; commas also split.
const textList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 });

export const SalesChannelQuery = Type.Object({
  ...pageQuery(20),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'matches name or description, case-insensitively' })),
  id: Type.Optional(textList),
  name: Type.Optional(textList),
  is_disabled: Type.Optional(Type.Boolean()),
});

const idBatch = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 1000 });

/** `{ add?, remove? }` of ids, as Medusa's batch-link routes take them. */
export const BatchLinkBody = Type.Object(
  { add: Type.Optional(idBatch), remove: Type.Optional(idBatch) },
  { additionalProperties: false },
);
