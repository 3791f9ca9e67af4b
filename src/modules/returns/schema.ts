import { Type, type Static } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import { Money } from '../../platform/money/schema.ts';
import { PreviewField } from '../orders/changes/schema-preview.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Note = Type.String({ maxLength: 2000 });

export const ReturnItem = Type.Object({
  id: Type.String(),
  return_id: Type.String(),
  order_id: Type.String(),
  item_id: Type.String(),
  quantity: Type.Integer(),
  received_quantity: Type.Integer(),
  damaged_quantity: Type.Integer(),
  reason_id: Nullable(Type.String()),
  note: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ReturnShippingMethod = Type.Object({
  id: Type.String(),
  shipping_option_id: Nullable(Type.String()),
  name: Type.String(),
  amount: Money(),
});

/** The parcel a return comes back in, made by its return shipping option's provider. */
export const ReturnFulfillment = Type.Object({
  id: Type.String(),
  provider_id: Type.String(),
  shipping_option_id: Nullable(Type.String()),
  location_id: Nullable(Type.String({ description: 'where the parcel goes back to' })),
  data: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: "the provider's answer (its shipment)" })),
  items: Type.Array(
    Type.Object({
      line_item_id: Type.String(),
      title: Type.String(),
      sku: Nullable(Type.String()),
      quantity: Type.Integer(),
    }),
  ),
  labels: Type.Array(
    Type.Object({
      id: Type.String(),
      tracking_number: Type.String(),
      tracking_url: Type.String(),
      label_url: Type.String(),
    }),
  ),
  delivered_at: NullableTimestamp,
  canceled_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** Medusa's return: open (being put together), requested, partially_received, received, canceled. */
export const Return = Type.Object({
  id: Type.String(),
  display_id: Type.Integer(),
  order_id: Type.String(),
  currency_code: Type.String({ description: "the order's" }),
  status: Type.String(),
  location_id: Nullable(Type.String()),
  description: Nullable(Type.String()),
  internal_note: Nullable(Type.String()),
  no_notification: Type.Boolean(),
  refund_amount: Money({ description: 'value of the items received so far, less return shipping' }),
  items: Type.Array(ReturnItem),
  shipping_methods: Type.Array(ReturnShippingMethod),
  fulfillments: Type.Array(ReturnFulfillment, {
    description: "parcels made through the return shipping option's provider (label, tracking)",
  }),
  created_by: Nullable(Type.String()),
  requested_at: NullableTimestamp,
  received_at: NullableTimestamp,
  canceled_at: NullableTimestamp,
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ReturnEnvelope = Type.Object({ return: Return });
export const ReturnPreviewEnvelope = Type.Object({ ...PreviewField, return: Return });
export const ReturnList = listEnvelope('returns', Return);

/** A list filter given once (`?id=a`) or repeated (`?id=a&id=b`). */
export const oneOrMany = Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: 100 })]));
/** Medusa's `fields` and `order` on the return, exchange and claim lists: accepted, not read (the answer has one shape). */
export const listShapeQuery = {
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 40 })),
};
export const ReturnQuery = Type.Object({
  ...pageQuery(20),
  id: oneOrMany,
  order_id: oneOrMany,
  status: oneOrMany,
  ...listShapeQuery,
});

export const CreateReturnBody = Type.Object(
  {
    order_id: Id,
    location_id: Type.Optional(Id),
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
    no_notification: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const UpdateReturnBody = Type.Object(
  { location_id: Type.Optional(Id), no_notification: Type.Optional(Type.Boolean()), metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);

const RequestItem = Type.Object(
  {
    id: Id,
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
    reason_id: Type.Optional(Id),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export const RequestItemsBody = Type.Object(
  { items: Type.Array(RequestItem, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);
export const UpdateRequestItemBody = Type.Object(
  {
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    internal_note: Type.Optional(Nullable(Note)),
    reason_id: Type.Optional(Nullable(Id)),
  },
  { additionalProperties: false },
);

const ReceiveItem = Type.Object(
  {
    id: Id,
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
  },
  { additionalProperties: false },
);
export const ReceiveItemsBody = Type.Object(
  { items: Type.Array(ReceiveItem, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);

export const ShippingMethodBody = Type.Object(
  {
    shipping_option_id: Id,
    custom_amount: Type.Optional(Money({ minimum: 0 })),
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

/** A pending shipping action changed: `custom_amount: null` puts back the option's own price. */
export const UpdateShippingActionBody = Type.Object(
  {
    custom_amount: Type.Optional(Nullable(Money({ minimum: 0 }))),
    internal_note: Type.Optional(Nullable(Note)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

/** A pending receipt (receive-items, dismiss-items) changed. */
export const UpdateReceiveActionBody = Type.Object(
  {
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    internal_note: Type.Optional(Nullable(Note)),
  },
  { additionalProperties: false },
);

export const NotifyBody = Type.Object(
  {
    no_notification: Type.Optional(Type.Boolean()),
    internal_note: Type.Optional(Note),
    description: Type.Optional(Note),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export const ActionParams = Type.Object({ id: Id, action_id: Id });

/** `POST /store/returns`: on the shopper's own order (a guest's: with the order's email). */
export const StoreCreateReturnBody = Type.Object(
  {
    order_id: Id,
    email: Type.Optional(Type.String({ maxLength: 320 })),
    items: Type.Array(
      Type.Object(
        {
          id: Id,
          quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
          reason_id: Type.Optional(Id),
          note: Type.Optional(Note),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
    return_shipping: Type.Optional(
      Type.Object({ option_id: Id }, { additionalProperties: false, description: "the option's own price applies" }),
    ),
    note: Type.Optional(Note),
    location_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);

export type ReturnView = Static<typeof Return>;
export type ReturnQueryInput = Static<typeof ReturnQuery>;
export type RequestItemsInput = Static<typeof RequestItemsBody>;
export type ReceiveItemsInput = Static<typeof ReceiveItemsBody>;
export type ShippingMethodInput = Static<typeof ShippingMethodBody>;
export type ShippingActionPatch = Static<typeof UpdateShippingActionBody>;
export type StoreCreateReturnInput = Static<typeof StoreCreateReturnBody>;
