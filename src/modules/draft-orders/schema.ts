import { Type, type Static } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable } from '../../platform/http/schema-types.ts';
import { Money } from '../../platform/money/schema.ts';
import { AddressInput } from '../carts/schema.ts';
import { AdminOrder } from '../orders/desk-schema.ts';
import { OrderPreview } from '../orders/changes/schema-preview.ts';

/** Medusa's `/admin/draft-orders` bodies and answers (2.21): a draft order is an order with status `draft`. */

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Note = Type.String({ maxLength: 2000 });
const Email = Type.String({ format: 'email', maxLength: 320 });

/** A line by variant (its price in the region's currency unless `unit_price` is given), or custom: a title and a price. */
export const DraftItemInput = Type.Object(
  {
    variant_id: Type.Optional(Nullable(Id)),
    title: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 500 }))),
    sku: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    barcode: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    unit_price: Type.Optional(Nullable(Money({ minimum: 0 }))),
    compare_at_unit_price: Type.Optional(Nullable(Money({ minimum: 0 }))),
    internal_note: Type.Optional(Note),
    allow_backorder: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Nullable(Metadata)),
  },
  { additionalProperties: false },
);

const CreateShippingMethod = Type.Object(
  {
    shipping_option_id: Id,
    shipping_method_id: Type.Optional(Nullable(Id)),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    amount: Type.Optional(Money({ minimum: 0 })),
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

export const CreateDraftOrderBody = Type.Object(
  {
    region_id: Id,
    email: Type.Optional(Nullable(Email)),
    customer_id: Type.Optional(Nullable(Id)),
    sales_channel_id: Type.Optional(Nullable(Id)),
    status: Type.Optional(Type.Literal('draft')),
    currency_code: Type.Optional(Nullable(Type.String({ minLength: 3, maxLength: 3 }))),
    shipping_address: Type.Optional(AddressInput),
    billing_address: Type.Optional(AddressInput),
    items: Type.Optional(Type.Array(DraftItemInput, { maxItems: 200 })),
    shipping_methods: Type.Optional(Type.Array(CreateShippingMethod, { maxItems: 20 })),
    promo_codes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20 })),
    no_notification_order: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Nullable(Metadata)),
  },
  { additionalProperties: false },
);

export const UpdateDraftOrderBody = Type.Object(
  {
    email: Type.Optional(Email),
    customer_id: Type.Optional(Id),
    sales_channel_id: Type.Optional(Id),
    shipping_address: Type.Optional(AddressInput),
    billing_address: Type.Optional(AddressInput),
    internal_note: Type.Optional(Nullable(Note)),
    metadata: Type.Optional(Nullable(Metadata)),
  },
  { additionalProperties: false },
);

export const DraftOrderQuery = Type.Object({
  ...pageQuery(15),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  order: Type.Optional(Type.String({ maxLength: 40 })),
  customer_id: Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: 100 })])),
  region_id: Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: 100 })])),
  sales_channel_id: Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: 100 })])),
});

export const ConvertDraftOrderBody = Type.Object(
  {
    mark_as_paid: Type.Optional(
      Type.Boolean({
        description:
          'true: the order is placed paid in full (a capture through the manual provider). By default it awaits payment: one unpaid payment collection of its total, paid by the customer or marked as paid.',
      }),
    ),
  },
  { additionalProperties: false },
);
export const ConvertDraftOrderQuery = Type.Object({
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  mark_as_paid: Type.Optional(Type.Boolean()),
});

export const AddDraftItemsBody = Type.Object(
  { items: Type.Array(DraftItemInput, { minItems: 1, maxItems: 200 }) },
  { additionalProperties: false },
);

export const AddShippingMethodBody = Type.Object(
  {
    shipping_option_id: Id,
    custom_amount: Type.Optional(Nullable(Money({ minimum: 0 }))),
    description: Type.Optional(Note),
    internal_note: Type.Optional(Note),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export const UpdateShippingMethodBody = Type.Object(
  {
    shipping_option_id: Type.Optional(Id),
    custom_amount: Type.Optional(Nullable(Money({ minimum: 0 }))),
    internal_note: Type.Optional(Nullable(Note)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

/** Medusa's `AdminAddDraftOrderPromotions` / `AdminRemoveDraftOrderPromotions`. */
export const PromoCodesBody = Type.Object(
  { promo_codes: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 20 }) },
  { additionalProperties: false },
);

export const MethodParams = Type.Object({ id: Id, method_id: Id });

export const DraftOrderEnvelope = Type.Object({ draft_order: AdminOrder });
export const DraftOrderList = listEnvelope('draft_orders', AdminOrder);
export const DraftPreviewEnvelope = Type.Object({ draft_order_preview: OrderPreview });
export const ConvertedEnvelope = Type.Object({ order: AdminOrder });

export type DraftItem = Static<typeof DraftItemInput>;
export type CreateDraftOrderInput = Static<typeof CreateDraftOrderBody>;
export type UpdateDraftOrderInput = Static<typeof UpdateDraftOrderBody>;
export type DraftOrderQueryInput = Static<typeof DraftOrderQuery>;
export type AddShippingMethodInput = Static<typeof AddShippingMethodBody>;
export type UpdateShippingMethodInput = Static<typeof UpdateShippingMethodBody>;
