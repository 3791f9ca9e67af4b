import { Type, type Static } from 'typebox';
import { Metadata } from '../../platform/http/schema-types.ts';
import { AddressInput } from '../carts/schema.ts';
import { ShippingOption } from '../shipping-options/schema.ts';
import { DeskLineItem } from './desk-schema.ts';

/** `POST /admin/orders/{id}`: Medusa's AdminUpdateOrder. */
export const UpdateOrderBody = Type.Object(
  {
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    shipping_address: Type.Optional(AddressInput),
    billing_address: Type.Optional(AddressInput),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    description: "an address sent is written over the order's (fields left out stay); its country cannot change",
  },
);

const Ids = Type.Optional(
  Type.Union([
    Type.String({ minLength: 1, maxLength: 200 }),
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 }),
  ]),
);

export const OrderItemsQuery = Type.Object({
  id: Ids,
  item_id: Ids,
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const OrderItemList = Type.Object({
  order_items: Type.Array(
    Type.Object({
      order_id: Type.String(),
      item_id: Type.String(),
      version: Type.Integer(),
      currency_code: Type.String({ description: "the order's (what the item's amounts are in)" }),
      history: Type.Object({ version: Type.Object({ from: Type.Integer(), to: Type.Integer() }) }),
      item: DeskLineItem,
    }),
  ),
});

export const OrderShippingOptionsQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });
export const OrderShippingOptionList = Type.Object({ shipping_options: Type.Array(ShippingOption) });

export type UpdateOrderInput = Static<typeof UpdateOrderBody>;
export type OrderItemsQueryInput = Static<typeof OrderItemsQuery>;
