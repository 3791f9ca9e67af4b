import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

/** Medusa's AdminCustomerGroup (default fields). */
export const CustomerGroup = Type.Object({
  id: Type.String(),
  name: Type.String(),
  metadata: Metadata,
  created_by: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
});

export const CustomerGroupEnvelope = Type.Object({ customer_group: CustomerGroup });
export const CustomerGroupList = listEnvelope('customer_groups', CustomerGroup);

const name = Type.String({ minLength: 1, maxLength: 255 });
const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 1000 });
const TextList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 });

export const CreateGroupBody = Type.Object(
  { name, metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);

export const UpdateGroupBody = Type.Object(
  { name: Type.Optional(name), metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);

/** Medusa's batch link body: ids to add and to remove, in one transaction. */
export const LinkBody = Type.Object(
  { add: Type.Optional(Ids), remove: Type.Optional(Ids) },
  { additionalProperties: false },
);

/** `fields` and `order` are accepted for the SDK and the dashboard; every group carries its default fields. */
export const GroupQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 255 })),
  id: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), TextList])),
  name: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), TextList])),
  customers: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), TextList])),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
});

export const GroupGetQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });
