import type { Ctx } from '../../platform/context.ts';
import type { Providers } from '../../platform/providers.ts';
import { errors } from '../../platform/http/errors.ts';
import { onLockedOrder } from '../orders/desk.ts';
import { addShipping, confirmRequest, createReturn, requestItems } from './request.ts';
import type { ReturnView, StoreCreateReturnInput } from './schema.ts';
import { withReturnCarrier } from './return-fulfillment.ts';
import { withReturnQuotes } from './return-shipping-quote.ts';
import { returnView } from './views.ts';

/**
 * `POST /store/returns`: a shopper asks items of their own order back in one step (created,
 * itemised and confirmed together). A customer's order only by that signed-in customer; a
 * guest's order only with its email. Anyone else gets the same 404 as for an unknown order, so
 * order ids cannot be probed.
 */
export function storeCreateReturn(
  ctx: Ctx,
  customerId: string | null,
  input: StoreCreateReturnInput,
  providers: Providers,
): Promise<ReturnView> {
  const notFound = errors.notFound('order_not_found', { id: input.order_id });
  // A calculated return option is quoted by its carrier with the order unlocked (return-shipping-quote.ts).
  // Its label too, after the price (return-fulfillment.ts).
  return withReturnQuotes(providers, (quotes) =>
    withReturnCarrier(ctx, providers, (carrier) =>
      onLockedOrder(ctx, input.order_id, async (tctx, order) => {
        const mine = order.customer_id
          ? order.customer_id === customerId
          : !!input.email && input.email.trim().toLowerCase() === order.email.toLowerCase();
        if (!mine) throw notFound;
        const ret = await createReturn(tctx, order, { location_id: input.location_id, description: input.note });
        await requestItems(tctx, ret, {
          items: input.items.map((i) => ({
            id: i.id,
            quantity: i.quantity,
            reason_id: i.reason_id,
            description: i.note,
          })),
        });
        if (input.return_shipping)
          await addShipping(tctx, ret, { shipping_option_id: input.return_shipping.option_id }, { order, quotes });
        await confirmRequest(tctx, order, ret, carrier);
        return returnView(tctx.tx, ret.id);
      }),
    ),
  ).catch((e: unknown) => {
    // An unknown order id reads as the same 404.
    if (
      e instanceof Error &&
      'type' in e &&
      (e as { type: string }).type === 'not_found' &&
      e.message.startsWith('Order')
    )
      throw notFound;
    throw e;
  });
}
