import { Type, type Static } from 'typebox';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import { Address, cartTotals, LineItem, ShippingMethod } from '../carts/schema.ts';
import { PaymentCollection } from '../payments/schema.ts';
import { Region } from '../regions/schema.ts';

/** The cart as the store shows it (Medusa's default fields): the carts module's cart with its region and payment collection. */
export const Cart = Type.Object({
  id: Type.String(),
  email: Nullable(Type.String()),
  currency_code: Type.String(),
  region_id: Type.String(),
  sales_channel_id: Nullable(Type.String()),
  customer_id: Nullable(Type.String()),
  locale: Nullable(Type.String()),
  metadata: Metadata,
  shipping_address: Nullable(Address),
  billing_address: Nullable(Address),
  items: Type.Array(LineItem),
  shipping_methods: Type.Array(ShippingMethod),
  region: Region,
  customer: Nullable(Type.Object({ id: Type.String(), email: Nullable(Type.String()) })),
  payment_collection: Nullable(PaymentCollection),
  promotions: Type.Array(Type.Unknown()),
  ...cartTotals,
  completed_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CartEnvelope = Type.Object({ cart: Cart });

export const LineItemDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('line-item'),
  deleted: Type.Literal(true),
  parent: Cart,
});

export type CartView = Static<typeof Cart>;
