import { Type, type Static } from 'typebox';
import { listEnvelope, pageQuery, searchListEnvelope } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import { AdminPaymentCollection } from '../payments/ledger-schema.ts';
import { OrderSummary as MoneySummary, OrderCreditLine, OrderTransaction } from './changes/schema.ts';
import { creditLineTotals, Order, OrderLineItem } from './schema.ts';

/** Medusa v2's status values; filters accept these and nothing else. */
export const ORDER_STATUSES = ['pending', 'completed', 'draft', 'archived', 'canceled', 'requires_action'] as const;
export const PAYMENT_STATUSES = [
  'not_paid',
  'awaiting',
  'authorized',
  'partially_authorized',
  'captured',
  'partially_captured',
  'partially_refunded',
  'refunded',
  'canceled',
  'requires_action',
] as const;
export const FULFILLMENT_STATUSES = [
  'not_fulfilled',
  'partially_fulfilled',
  'fulfilled',
  'partially_shipped',
  'shipped',
  'partially_delivered',
  'delivered',
  'canceled',
] as const;

const Id = Type.String({ minLength: 1, maxLength: 200 });

export const FulfillmentItem = Type.Object({
  id: Type.String(),
  line_item_id: Type.String(),
  title: Type.String(),
  sku: Nullable(Type.String()),
  quantity: Type.Integer(),
});

export const FulfillmentLabel = Type.Object({
  id: Type.String(),
  tracking_number: Type.String(),
  tracking_url: Type.String(),
  label_url: Type.String(),
});

export const Fulfillment = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  location_id: Nullable(Type.String()),
  shipping_option_id: Nullable(Type.String()),
  /** The fulfilment provider that made it (`manual_manual`, or a plugin's `fp_…`), and its answer. */
  provider_id: Nullable(Type.String()),
  data: Nullable(Type.Record(Type.String(), Type.Unknown())),
  items: Type.Array(FulfillmentItem),
  labels: Type.Array(FulfillmentLabel),
  no_notification: Type.Boolean(),
  shipped_at: NullableTimestamp,
  delivered_at: NullableTimestamp,
  canceled_at: NullableTimestamp,
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** Order line with Medusa's per-item progress, delivered included. */
export const DeskLineItem = Type.Object({
  ...OrderLineItem.properties,
  detail: Type.Object({
    quantity: Type.Integer(),
    fulfilled_quantity: Type.Integer(),
    shipped_quantity: Type.Integer(),
    delivered_quantity: Type.Integer(),
    returned_quantity: Type.Integer(),
    /** Medusa's: units asked back by returns (not canceled) and not received yet. */
    return_requested_quantity: Type.Integer(),
  }),
});

/** `GET /admin/orders/{id}` and every order desk action. */
/** An imported order's id where it came from: the desk's (list and page), not the store's. */
const ExternalId = Type.Optional(
  Nullable(Type.String({ description: 'its id in the system it was imported from (`POST /admin/orders/import`)' })),
);

export const AdminOrder = Type.Object({
  ...Order.properties,
  external_id: ExternalId,
  items: Type.Array(DeskLineItem),
  payment_collections: Type.Array(AdminPaymentCollection),
  fulfillments: Type.Array(Fulfillment),
  /** Starts at 1; each confirmed order change makes the next. */
  version: Type.Integer(),
  summary: MoneySummary,
  transactions: Type.Array(OrderTransaction),
  credit_lines: Type.Array(OrderCreditLine),
  ...creditLineTotals,
});

/** What a shopper sees of their order: no capture or refund ledger, no internal notes. */
export const StoreOrder = Type.Object({
  ...Order.properties,
  items: Type.Array(DeskLineItem),
  fulfillments: Type.Array(Fulfillment),
  // In Medusa's default store order fields (`*credit_lines`, `credit_line_total`).
  credit_lines: Type.Array(OrderCreditLine),
  ...creditLineTotals,
});

/** A row of `GET /admin/orders`: the order without its lines (two queries per page), its total credited as the order page's. */
export const OrderSummary = Type.Object({
  ...Type.Omit(Order, ['items', 'shipping_methods', 'payment_collections']).properties,
  external_id: ExternalId,
  ...creditLineTotals,
});

const { payment_collections: _collections, ...orderFields } = Order.properties;
/** One of `customer.orders` (`/store/customers/me?fields=*orders`): the order with its lines, methods and totals, as Medusa's Query links it. */
export const CustomerOrder = Type.Object({
  ...orderFields,
  ...creditLineTotals,
  version: Type.Integer(),
  deleted_at: Type.Null(),
});
export type CustomerOrderView = Static<typeof CustomerOrder>;

export const AdminOrderEnvelope = Type.Object({ order: AdminOrder });
export const StoreOrderEnvelope = Type.Object({ order: StoreOrder });
export const AdminOrderList = searchListEnvelope('orders', OrderSummary);
export const StoreOrderList = listEnvelope('orders', StoreOrder);

const oneOrMany = <T extends readonly string[]>(values: T) => {
  const one = Type.Union(values.map((v) => Type.Literal(v)));
  return Type.Optional(Type.Union([one, Type.Array(one, { maxItems: 20 })]));
};
const ids = Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: 100 })]));
const Instant = Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 date or date-time' });

/** `created_at[gte]=…` (ours) or Medusa's `created_at[$gte]=…`. */
const DateRange = Type.Object(
  {
    gte: Type.Optional(Instant),
    lte: Type.Optional(Instant),
    gt: Type.Optional(Instant),
    lt: Type.Optional(Instant),
    $gte: Type.Optional(Instant),
    $lte: Type.Optional(Instant),
    $gt: Type.Optional(Instant),
    $lt: Type.Optional(Instant),
  },
  { additionalProperties: false },
);

export const ORDER_SORT_FIELDS = ['id', 'display_id', 'created_at', 'updated_at', 'total', 'email'] as const;

export const AdminOrderQuery = Type.Object({
  ...pageQuery(15),
  id: ids,
  status: oneOrMany(ORDER_STATUSES),
  payment_status: oneOrMany(PAYMENT_STATUSES),
  fulfillment_status: oneOrMany(FULFILLMENT_STATUSES),
  customer_id: ids,
  region_id: ids,
  sales_channel_id: ids,
  is_draft_order: Type.Optional(
    Type.Boolean({
      description: 'true: draft orders only. Default: placed orders only (unless status includes draft)',
    }),
  ),
  email: Type.Optional(
    Type.Union([Type.String({ maxLength: 320 }), Type.Array(Type.String({ maxLength: 320 }), { maxItems: 100 })], {
      description: 'exact, any case',
    }),
  ),
  created_at: Type.Optional(DateRange),
  q: Type.Optional(
    Type.String({ maxLength: 200, description: 'part of the email, the display id, or the start of the order id' }),
  ),
  order: Type.Optional(
    Type.String({
      maxLength: 40,
      description: `one of ${ORDER_SORT_FIELDS.join(', ')}; a leading - sorts descending. Default: oldest first`,
    }),
  ),
});

/** Medusa's storefront sends `fields` and `order` (e.g. `-created_at`): accepted; the list is newest first anyway. */
const StoreReadHints = {
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
};
export const StoreOrderQuery = Type.Object({ ...pageQuery(20), ...StoreReadHints });
export const StoreOrderGetQuery = Type.Object(StoreReadHints);

const LineRef = Type.Object(
  {
    item_id: Type.Optional(Id),
    id: Type.Optional(Id),
    quantity: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false, description: 'exactly one of item_id (spec) or id (Medusa): the order line' },
);

export const CreateFulfillmentBody = Type.Object(
  {
    items: Type.Array(LineRef, { minItems: 1, maxItems: 500 }),
    no_notification: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Metadata),
    location_id: Type.Optional(Id),
    shipping_option_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);

const Url = Type.String({ maxLength: 2000 });
export const CreateShipmentBody = Type.Object(
  {
    items: Type.Optional(
      Type.Array(LineRef, {
        maxItems: 500,
        description: "if given, exactly the fulfillment's items: a shipment ships the whole fulfillment",
      }),
    ),
    labels: Type.Optional(
      Type.Array(
        Type.Object(
          { tracking_number: Type.String({ maxLength: 500 }), tracking_url: Url, label_url: Url },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
    no_notification: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const NoNotificationBody = Type.Object(
  { no_notification: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const EmptyBody = Type.Object({}, { additionalProperties: false });
export const FulfillmentParams = Type.Object({ id: Id, fulfillment_id: Id });

export type AdminOrderView = Static<typeof AdminOrder>;
export type FulfillmentView = Static<typeof Fulfillment>;
export type DeskLineItemView = Static<typeof DeskLineItem>;
export type AdminOrderQueryInput = Static<typeof AdminOrderQuery>;
export type CreateFulfillmentInput = Static<typeof CreateFulfillmentBody>;
export type CreateShipmentInput = Static<typeof CreateShipmentBody>;
export type LineRefInput = Static<typeof LineRef>;
