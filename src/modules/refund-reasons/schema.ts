import { Type, type Static } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

/** Medusa's AdminRefundReason. */
export const RefundReason = Type.Object({
  id: Type.String(),
  label: Type.String(),
  code: Type.String(),
  description: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
});

export const RefundReasonEnvelope = Type.Object({ refund_reason: RefundReason });
export const RefundReasonList = listEnvelope('refund_reasons', RefundReason);

export const RefundReasonQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  id: Type.Optional(Type.Array(Text(200), { maxItems: 100 })),
  code: Type.Optional(Type.Array(Text(200), { maxItems: 100 })),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 40 })),
});

export const CreateRefundReasonBody = Type.Object(
  {
    label: Text(200),
    code: Text(200),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const UpdateRefundReasonBody = Type.Partial(CreateRefundReasonBody, { additionalProperties: false });

export type RefundReasonView = Static<typeof RefundReason>;
export type RefundReasonQueryInput = Static<typeof RefundReasonQuery>;
export type CreateRefundReasonInput = Static<typeof CreateRefundReasonBody>;
export type UpdateRefundReasonInput = Static<typeof UpdateRefundReasonBody>;
