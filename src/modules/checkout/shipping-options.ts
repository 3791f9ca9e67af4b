import type { Ctx } from '../../platform/context.ts';
import type { CartAccess } from '../carts/service.ts';
import { listRegionShippingOptions } from '../shipping-options/service.ts';
import { findVisibleCart } from './cart-flow.ts';

/** `GET /store/shipping-options?cart_id=`: the options a cart may choose from, those of its region. */
export async function listCartShippingOptions(ctx: Ctx, cartId: string, access: CartAccess) {
  const cart = await findVisibleCart(ctx, cartId, access);
  const options = await listRegionShippingOptions(ctx, cart.region_id);
  return options.map((o) => ({ ...o, is_tax_inclusive: false, insufficient_inventory: false }));
}
