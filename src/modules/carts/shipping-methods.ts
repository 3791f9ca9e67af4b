import type { TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { findShippingOption } from '../shipping-options/service.ts';
import * as q from './queries.ts';

/** Sets the cart's shipping method from an option of its region, replacing the previous one (cart locked by lockOpenCart). */
export async function chooseShippingMethod(
  tctx: TxCtx,
  cart: q.LockedCart,
  input: { option_id: string; data?: Record<string, unknown> },
): Promise<void> {
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
}
