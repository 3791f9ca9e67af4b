import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { findShippingOption } from '../shipping-options/service.ts';
import * as q from './queries.ts';
import type { CartView } from './schema.ts';
import { mutateCart, type CartAccess } from './service.ts';

/** Sets the cart's shipping method from an option of its region, replacing the previous one. */
export async function addShippingMethod(
  ctx: Ctx,
  cartId: string,
  input: { option_id: string; data?: Record<string, unknown> },
  access: CartAccess,
): Promise<CartView> {
  return mutateCart(ctx, cartId, access, async (tctx, cart) => {
    const option = await findShippingOption(tctx.tx, input.option_id);
    if (!option || option.region_id !== cart.region_id) throw errors.invalid('Shipping Options are invalid for cart.');
    const now = tctx.clock.now();
    await q.deleteShippingMethods(tctx.tx, cart.id);
    await q.insertShippingMethod(tctx.tx, {
      id: newId('casm'),
      cart_id: cart.id,
      shipping_option_id: option.id,
      name: option.name,
      amount: option.amount,
      data: input.data ?? option.data ?? null,
      created_at: now,
      updated_at: now,
    });
  });
}
