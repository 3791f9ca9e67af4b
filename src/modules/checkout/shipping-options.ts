import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { CartAccess } from '../carts/service.ts';
import { findShippingOption, listRegionShippingOptions } from '../shipping-options/service.ts';
import type { ShippingOptionView } from '../shipping-options/schema.ts';
import { findVisibleCart } from './cart-flow.ts';

const forStore = (o: ShippingOptionView) => ({ ...o, is_tax_inclusive: false, insufficient_inventory: false });

/** `GET /store/shipping-options?cart_id=`: the options a cart may choose from, those of its region. */
export async function listCartShippingOptions(ctx: Ctx, cartId: string, access: CartAccess) {
  const cart = await findVisibleCart(ctx, cartId, access);
  const options = await listRegionShippingOptions(ctx, cart.region_id);
  return options.map(forStore);
}

/**
 * `POST /store/shipping-options/{id}/calculate`: Medusa's storefront asks this for options priced
 * by a provider. Every option here is flat, so the price is the option's amount, in Medusa's
 * `calculated_price` shape.
 */
export async function calculateCartShippingOption(ctx: Ctx, optionId: string, cartId: string, access: CartAccess) {
  const cart = await findVisibleCart(ctx, cartId, access);
  const option = await findShippingOption(ctx.db, optionId);
  if (!option) throw errors.notFound(`Shipping option with id: ${optionId} was not found`);
  if (option.region_id !== cart.region_id)
    throw errors.invalid(`Shipping option ${optionId} is not available for the cart's region`);
  return {
    ...forStore(option),
    calculated_price: {
      calculated_amount: option.amount,
      original_amount: option.amount,
      currency_code: option.currency_code,
      is_calculated_price_tax_inclusive: false,
      is_original_price_tax_inclusive: false,
    },
  };
}
