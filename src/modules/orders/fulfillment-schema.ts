import { Type, type Static } from 'typebox';
import { Metadata, Nullable } from '../../platform/http/schema-types.ts';
import { Fulfillment } from './desk-schema.ts';

/**
 * Medusa's `/admin/fulfillments` bodies. Here every fulfilment is of an order, so `order_id` and
 * each item's `line_item_id` are required, and the order desk does the work (stock, quantities,
 * statuses, events) as `POST /admin/orders/{id}/fulfillments` does.
 */

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Text = Type.String({ maxLength: 500 });
const Url = Type.String({ maxLength: 2000 });

export const LabelInput = Type.Object(
  { tracking_number: Text, tracking_url: Url, label_url: Url },
  { additionalProperties: false },
);

const ItemInput = Type.Object(
  {
    line_item_id: Id,
    quantity: Type.Integer({ minimum: 1 }),
    title: Type.Optional(Text),
    sku: Type.Optional(Nullable(Text)),
    barcode: Type.Optional(Nullable(Text)),
    inventory_item_id: Type.Optional(Nullable(Id)),
  },
  {
    additionalProperties: false,
    description:
      "the order line and its units; title, sku, barcode and inventory_item_id are accepted, the line's own are kept",
  },
);

/** Medusa's address payload, accepted and not kept: a fulfilment ships to its order's shipping address. */
const DeliveryAddress = Type.Object(
  {},
  {
    additionalProperties: true,
    description: "not kept: the fulfilment ships to the order's shipping address (POST /admin/orders/{id} changes it)",
  },
);

export const CreateFulfillmentRequest = Type.Object(
  {
    order_id: Id,
    items: Type.Array(ItemInput, { minItems: 1, maxItems: 500 }),
    location_id: Type.Optional(Nullable(Id)),
    provider_id: Type.Optional(
      Type.String({
        maxLength: 200,
        description: "if given, it must be the provider of the option shipped by (the one named, else the order's)",
      }),
    ),
    shipping_option_id: Type.Optional(Nullable(Id)),
    delivery_address: Type.Optional(Nullable(DeliveryAddress)),
    labels: Type.Optional(Type.Array(LabelInput, { maxItems: 50 })),
    no_notification: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const ShipFulfillmentRequest = Type.Object(
  { labels: Type.Array(LabelInput, { maxItems: 50 }) },
  { additionalProperties: false },
);

export const FulfillmentEnvelope = Type.Object({ fulfillment: Fulfillment });

export type CreateFulfillmentRequestInput = Static<typeof CreateFulfillmentRequest>;
export type ShipFulfillmentRequestInput = Static<typeof ShipFulfillmentRequest>;
