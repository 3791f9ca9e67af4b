import { Type, type Static } from 'typebox';
import { Money } from '../../platform/money/schema.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import {
  Address,
  cartTotals,
  chargeLines,
  LineProduct,
  LineVariant,
  lineFlags,
  lineHeading,
  lineProductNames,
  lineTotals,
  rowTimestamps,
} from '../carts/schema.ts';
import { OrderPaymentCollection } from '../payments/schema.ts';
import { OrderCreditLine } from './changes/schema.ts';

export const OrderLineItem = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  ...lineHeading,
  variant_id: Nullable(Type.String()),
  product_id: Nullable(Type.String()),
  ...lineProductNames,
  unit_price: Money(),
  quantity: Type.Integer(),
  ...lineFlags,
  /** As copied at checkout (what Medusa's `*items.product` / `*items.variant` show on the order pages). */
  product: Nullable(LineProduct),
  variant: Nullable(LineVariant),
  /** Medusa's per-item progress; the order desk moves these. */
  detail: Type.Object({
    quantity: Type.Integer(),
    fulfilled_quantity: Type.Integer(),
    shipped_quantity: Type.Integer(),
    returned_quantity: Type.Integer(),
  }),
  ...chargeLines,
  metadata: Metadata,
  ...lineTotals,
  ...rowTimestamps,
});

export const OrderShippingMethod = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  shipping_option_id: Nullable(Type.String()),
  name: Type.String(),
  amount: Money(),
  is_tax_inclusive: Type.Boolean(),
  data: Nullable(Type.Record(Type.String(), Type.Unknown())),
  ...chargeLines,
  ...lineTotals,
  ...rowTimestamps,
});

export const Order = Type.Object({
  id: Type.String(),
  display_id: Type.Integer(),
  status: Type.String({ description: 'pending | completed | draft | archived | canceled | requires_action' }),
  payment_status: Type.String(),
  fulfillment_status: Type.String(),
  cart_id: Nullable(Type.String()),
  is_draft_order: Type.Boolean(),
  customer_id: Nullable(Type.String()),
  email: Type.String(),
  region_id: Type.String(),
  sales_channel_id: Nullable(Type.String()),
  currency_code: Type.String(),
  shipping_address: Nullable(Address),
  billing_address: Nullable(Address),
  items: Type.Array(OrderLineItem),
  shipping_methods: Type.Array(OrderShippingMethod),
  payment_collections: Type.Array(OrderPaymentCollection),
  ...cartTotals,
  metadata: Metadata,
  canceled_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** As Medusa's totals, on every view of an order: what `total` already has less (changes/summary.ts `creditedTotals`). */
export const creditLineTotals = {
  credit_line_total: Money({ description: 'the credit lines taken off `total` (0 when their sum is not positive)' }),
  credit_line_subtotal: Money({ description: '`credit_line_total` before tax (a credit line carries none: the same)' }),
  credit_line_tax_total: Money({
    description: 'the tax in `credit_line_total`: 0, as Medusa (no tax rate on credit lines)',
  }),
};

/** The order with its credit lines, as checkout answers it (Medusa's default store order fields). */
export const CreditedOrder = Type.Object({
  ...Order.properties,
  credit_lines: Type.Array(OrderCreditLine),
  ...creditLineTotals,
});

export const OrderEnvelope = Type.Object({ order: Order });
export const CompleteCartResponse = Type.Object({ type: Type.Literal('order'), order: CreditedOrder });

export type OrderView = Static<typeof Order>;
export type CreditedOrderView = Static<typeof CreditedOrder>;
export type OrderLineItemView = Static<typeof OrderLineItem>;
export type OrderShippingMethodView = Static<typeof OrderShippingMethod>;
