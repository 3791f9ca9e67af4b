import { Type } from 'typebox';
import { Nullable } from '../../../platform/http/schema-types.ts';
import { AdminOrder, DeskLineItem } from '../desk-schema.ts';
import { OrderChange, OrderChangeAction } from './schema.ts';

export { OrderChangeList } from './schema.ts';

/** A line of a preview: the actions of the open change that touch it. */
export const PreviewItem = Type.Object({
  ...DeskLineItem.properties,
  actions: Type.Optional(Type.Array(OrderChangeAction)),
});

/** Medusa's order preview: the order with its active change applied, and that change. */
export const OrderPreview = Type.Object({
  ...AdminOrder.properties,
  items: Type.Array(PreviewItem),
  order_change: Nullable(OrderChange),
});

export const OrderPreviewEnvelope = Type.Object({ order: OrderPreview });
/** Flows answer with the preview and their own resource (`{ order_preview, return }`). */
export const PreviewField = { order_preview: OrderPreview };
