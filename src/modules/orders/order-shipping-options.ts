import { executor, type Ctx } from '../../platform/context.ts';
import { optionsServing } from '../shipping-options/service.ts';
import { productProfileIds } from '../shipping-options/store-queries.ts';
import type { ShippingOptionView } from '../shipping-options/schema.ts';
import * as dq from './desk-queries.ts';
import { orderNotFound } from './desk.ts';

/**
 * `GET /admin/orders/{id}/shipping-options`: the options the order's items could ship by now (an
 * exchange's or claim's outbound parcel, an edit's new line): those serving its region, sales
 * channel and shipping address for its products' shipping profiles, chosen as a cart's are.
 */
export async function orderShippingOptions(ctx: Ctx, id: string): Promise<ShippingOptionView[]> {
  const db = executor(ctx);
  const order = await dq.findOrderRow(db, id);
  if (!order) throw orderNotFound(id);
  const lines = await dq.listLinesOf(db, [order.id]);
  return optionsServing(db, {
    region_id: order.region_id,
    sales_channel_id: order.sales_channel_id,
    address: order.shipping_address?.country_code ? order.shipping_address : null,
    profile_ids: await productProfileIds(
      db,
      lines.map((l) => l.product_id),
    ),
    is_return: false,
  });
}
