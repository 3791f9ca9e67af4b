import { Type, type Static } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

const ReasonFields = {
  id: Type.String(),
  value: Type.String(),
  label: Type.String(),
  description: Nullable(Type.String()),
  parent_return_reason_id: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
};

/** Medusa's return reason, with its parent and its children one level each way. */
export const ReturnReason = Type.Object({
  ...ReasonFields,
  parent_return_reason: Nullable(Type.Object(ReasonFields)),
  return_reason_children: Type.Array(Type.Object(ReasonFields)),
});

export const ReturnReasonEnvelope = Type.Object({ return_reason: ReturnReason });
export const ReturnReasonList = listEnvelope('return_reasons', ReturnReason);

const oneOrMany = Type.Optional(Type.Union([Text(200), Type.Array(Text(200), { maxItems: 100 })]));
export const ReturnReasonQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  id: oneOrMany,
  value: oneOrMany,
  parent_return_reason_id: oneOrMany,
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 40 })),
});

export const CreateReturnReasonBody = Type.Object(
  {
    value: Text(200),
    label: Text(200),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    parent_return_reason_id: Type.Optional(Nullable(Text(200))),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const UpdateReturnReasonBody = Type.Partial(CreateReturnReasonBody, { additionalProperties: false });

export type ReturnReasonView = Static<typeof ReturnReason>;
export type ReturnReasonQueryInput = Static<typeof ReturnReasonQuery>;
export type CreateReturnReasonInput = Static<typeof CreateReturnReasonBody>;
export type UpdateReturnReasonInput = Static<typeof UpdateReturnReasonBody>;
