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
        summary: 'Shipping options for a cart (those of its region)',
        querystring: StoreShippingOptionQuery,
        response: ok(StoreShippingOptionList),
      },
    },
    async (req) => ({ shipping_options: await listCartShippingOptions(req.ctx, req.query.cart_id, cartAccess(req)) }),
  );

  app.post(
    '/shipping-options/:id/calculate',
    {
      schema: {
        tags,
        summary: "An option's price for a cart (every option is flat: its amount)",
        params: IdParams,
        body: CalculateShippingOptionBody,
        response: ok(Type.Object({ shipping_option: CalculatedShippingOption })),
      },
    },
    async (req) => ({
      shipping_option: await calculateCartShippingOption(req.ctx, req.params.id, req.body.cart_id, cartAccess(req)),
    }),
  );
};
