import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { cartAccess } from '../carts/access.ts';
import { StoreShippingOptionList, StoreShippingOptionQuery } from '../shipping-options/schema.ts';
import { listCartShippingOptions } from './shipping-options.ts';

const tags = ['shipping-options'];

export const storeShippingOptionRoutes: RouteModule = (app) => {
  app.get(
    '/shipping-options',
    {
      schema: {
        tags,
        summary: 'Shipping options for a cart (those of its region)',
        querystring: StoreShippingOptionQuery,
        response: ok(StoreShippingOptionList),
      },
    },
    async (req) => ({ shipping_options: await listCartShippingOptions(req.ctx, req.query.cart_id, cartAccess(req)) }),
  );
};
