import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { cartAccess } from '../carts/access.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import {
  CalculatedShippingOption,
  CalculateShippingOptionBody,
  StoreShippingOptionList,
  StoreShippingOptionQuery,
} from '../shipping-options/schema.ts';
import { calculateCartShippingOption, listCartShippingOptions } from './shipping-options.ts';
import { Type } from 'typebox';

const tags = ['shipping-options'];

export const storeShippingOptionRoutes: RouteModule = (app) => {
  app.get(
    '/shipping-options',
    {
      schema: {
        tags,
        summary:
          "Shipping options for a cart: its address's zones, its channel's locations, its items' profiles, priced for it",
        querystring: StoreShippingOptionQuery,
        response: ok(StoreShippingOptionList),
      },
    },
    async (req) => ({
      shipping_options: await listCartShippingOptions(req.ctx, req.query.cart_id, cartAccess(req), req.query.is_return),
    }),
  );

  app.post(
    '/shipping-options/:id/calculate',
    {
      schema: {
        tags,
        summary: "An option's price for a cart (flat: its price for the cart; calculated: its provider's quote)",
        params: IdParams,
        body: CalculateShippingOptionBody,
        response: ok(Type.Object({ shipping_option: CalculatedShippingOption })),
      },
    },
    async (req) => ({
      shipping_option: await calculateCartShippingOption(
        req.ctx,
        req.params.id,
        req.body.cart_id,
        cartAccess(req),
        req.server.providers,
        req.body.data,
      ),
    }),
  );
};
