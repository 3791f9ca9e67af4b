import { Type, type Static } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import { Money } from '../../platform/money/schema.ts';
import { AdminOrder } from '../orders/desk-schema.ts';
import { PreviewField } from '../orders/changes/schema-preview.ts';
import { listShapeQuery, oneOrMany, Return } from '../returns/schema.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Note = Type.String({ maxLength: 2000 });

const AdditionalItem = Type.Object({
  id: Type.String({ description: 'the ITEM_ADD action' }),
  exchange_id: Type.Optional(Type.String()),
  claim_id: Type.Optional(Type.String()),
  item_id: Type.String({ description: 'the order line it adds' }),
  variant_id: Nullable(Type.String()),
  quantity: Type.Integer(),
  unit_price: Money(),
});
const ReturnedItem = Type.Object({
  id: Type.String(),
  item_id: Type.String(),
  quantity: Type.Integer(),
  reason_id: Nullable(Type.String()),
});
const ClaimItem = Type.Object({
  id: Type.String(),
  item_id: Type.String(),
  quantity: Type.Integer(),
  reason: Type.String({ description: 'missing_item | wrong_item | production_failure | other' }),
  note: Nullable(Type.String()),
});

const common = {
  id: Type.String(),
  display_id: Type.Integer(),
  order_id: Type.String(),
  currency_code: Type.String({ description: "the order's currency, which the amounts are in" }),
  return_id: Nullable(Type.String()),
  status: Type.String({ description: "its order change's: pending | confirmed | canceled" }),
  order_change_id: Nullable(Type.String()),
  no_notification: Type.Boolean(),
  created_by: Nullable(Type.String()),
  additional_items: Type.Array(AdditionalItem),
  return_items: Type.Array(ReturnedItem),
  confirmed_at: NullableTimestamp,
  canceled_at: NullableTimestamp,
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Exchange = Type.Object({
  ...common,
  difference_due: Nullable(Money({ description: 'outbound + shipping − inbound, once confirmed' })),
  allow_backorder: Type.Boolean(),
});
export const Claim = Type.Object({
  ...common,
  type: Type.String({ description: 'replace | refund' }),
  refund_amount: Nullable(Money({ description: 'what the claimed items credit (refund claims), once confirmed' })),
  claim_items: Type.Array(ClaimItem),
});

export type SwapViewShape = Static<typeof Exchange> & Partial<Static<typeof Claim>>;

export const envelopes = (key: 'exchange' | 'claim') => {
  const Swap = key === 'exchange' ? Exchange : Claim;
  return {
    one: Type.Object({ [key]: Swap }),
    created: Type.Object({ order: AdminOrder, [key]: Swap }),
    preview: Type.Object({ ...PreviewField, [key]: Swap }),
    requested: Type.Object({ ...PreviewField, [key]: Swap, return: Type.Optional(Return) }),
    list: key === 'exchange' ? listEnvelope('exchanges', Swap) : listEnvelope('claims', Swap),
  };
};

export const SwapQuery = Type.Object({
  ...pageQuery(20),
  id: oneOrMany,
  order_id: oneOrMany,
  ...listShapeQuery,
});

export const CreateExchangeBody = Type.Object(
  {
    order_id: Id,
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
    metadata: Type.Optional(Nullable(Metadata)),
  },
  { additionalProperties: false },
);
export const CreateClaimBody = Type.Object(
  {
    order_id: Id,
    type: Type.Union([Type.Literal('replace'), Type.Literal('refund')]),
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
    metadata: Type.Optional(Nullable(Metadata)),
  },
  { additionalProperties: false },
);

export const ClaimReasonSchema = Type.Union([
  Type.Literal('missing_item'),
  Type.Literal('wrong_item'),
  Type.Literal('production_failure'),
  Type.Literal('other'),
]);
export const ClaimItemsBody = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          id: Id,
          quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
          reason: Type.Optional(ClaimReasonSchema),
          description: Type.Optional(Note),
          internal_note: Type.Optional(Note),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);

export const UpdateActionBody = Type.Object(
  {
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    reason_id: Type.Optional(Nullable(Id)),
    internal_note: Type.Optional(Nullable(Note)),
  },
  { additionalProperties: false },
);
export const CancelBody = Type.Object(
  { no_notification: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const SwapActionParams = Type.Object({ id: Id, action_id: Id });
