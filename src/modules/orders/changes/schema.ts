import { Type, type Static } from 'typebox';
import { Money } from '../../../platform/money/schema.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../../platform/http/schema-types.ts';

/** Money at a glance, with Medusa's meanings (summary.ts says how each is counted). */
export const OrderSummary = Type.Object({
  authorized_total: Money(),
  captured_total: Money({ description: 'same as paid_total (kept for older clients)' }),
  paid_total: Money({ description: 'everything captured' }),
  refunded_total: Money({ description: 'everything refunded' }),
  transaction_total: Money({ description: 'paid_total minus refunded_total' }),
  original_order_total: Money({ description: 'the total when the order was placed' }),
  current_order_total: Money({
    description: 'the total after confirmed changes (edits, returns received), less the credit lines',
  }),
  accounting_total: Money({ description: "Medusa's: the same as current_order_total" }),
  credit_line_total: Money({ description: "the order's credit lines summed with their signs" }),
  pending_difference: Money({
    description:
      'current_order_total minus transaction_total: owed by the shopper (> 0) or to them (< 0); 0 once canceled',
  }),
});

export const OrderTransaction = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  amount: Money({ description: 'a capture is positive, a refund negative' }),
  currency_code: Type.String(),
  reference: Type.Union([Type.Literal('capture'), Type.Literal('refund')]),
  reference_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** Medusa's OrderCreditLine. */
export const OrderCreditLine = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  reference: Type.String(),
  reference_id: Type.String(),
  amount: Money({ description: 'positive lowers what the shopper owes, negative what they are owed' }),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** `POST /admin/orders/{id}/credit-lines`: Medusa's AdminCreateOrderCreditLine. */
export const CreateCreditLineBody = Type.Object(
  {
    amount: Money({ description: 'non-zero, of the sign of the pending difference and at most as large' }),
    reference: Type.String({ minLength: 1, maxLength: 200 }),
    reference_id: Type.String({ minLength: 1, maxLength: 200 }),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateCreditLineInput = Static<typeof CreateCreditLineBody>;
export type OrderCreditLineView = Static<typeof OrderCreditLine>;

export const OrderChangeAction = Type.Object({
  id: Type.String(),
  order_change_id: Type.String(),
  order_id: Type.String(),
  return_id: Nullable(Type.String()),
  version: Type.Integer(),
  action: Type.String(),
  reference: Nullable(Type.String()),
  reference_id: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
  amount: Money(),
  internal_note: Nullable(Type.String()),
  applied: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const OrderChange = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  return_id: Nullable(Type.String()),
  exchange_id: Nullable(Type.String()),
  claim_id: Nullable(Type.String()),
  change_type: Type.String(),
  currency_code: Type.String({ description: "the order's" }),
  status: Type.String({ description: 'pending | requested | confirmed | declined | canceled' }),
  version: Type.Integer(),
  description: Nullable(Type.String()),
  internal_note: Nullable(Type.String()),
  created_by: Nullable(Type.String()),
  requested_by: Nullable(Type.String()),
  requested_at: NullableTimestamp,
  confirmed_by: Nullable(Type.String()),
  confirmed_at: NullableTimestamp,
  declined_by: Nullable(Type.String()),
  declined_reason: Nullable(Type.String()),
  declined_at: NullableTimestamp,
  canceled_by: Nullable(Type.String()),
  canceled_at: NullableTimestamp,
  /** Medusa's: whether the order's promotions apply to the change's new items. Never here (they are priced without them). */
  carry_over_promotions: Type.Boolean(),
  metadata: Metadata,
  actions: Type.Array(OrderChangeAction),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const OrderChangeList = Type.Object({ order_changes: Type.Array(OrderChange) });

export type OrderSummaryView = Static<typeof OrderSummary>;
export type OrderTransactionView = Static<typeof OrderTransaction>;
export type OrderChangeView = Static<typeof OrderChange>;
export type OrderChangeActionView = Static<typeof OrderChangeAction>;

export const OrderChangeEnvelope = Type.Object({ order_change: OrderChange });

/** `POST /admin/order-changes/{id}`: Medusa's AdminUpdateOrderChange. */
export const UpdateOrderChangeBody = Type.Object(
  {
    carry_over_promotions: Type.Optional(
      Type.Boolean({ description: "only false: a change's new items are priced without the order's promotions" }),
    ),
    internal_note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);
export type UpdateOrderChangeInput = Static<typeof UpdateOrderChangeBody>;
