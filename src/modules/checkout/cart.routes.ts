import { type TSchema, Type } from 'typebox';
import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { cartAccess } from '../carts/access.ts';
import {
  AddShippingMethodBody,
  CreateCartBody,
  LineItemInput,
  LineItemParams,
  UpdateCartBody,
  UpdateLineItemBody,
} from '../carts/schema.ts';
import { PromoCodesBody } from '../promotions/schema.ts';
import { requireCustomer } from '../customers/customer-auth.ts';
import { CompleteCartResponse } from '../orders/schema.ts';
import { addShippingMethod } from './shipping-options.ts';
import {
  addLineItem,
  calculateCartTaxes,
  changeCartCodes,
  createCart,
  deleteLineItem,
  getCart,
  setCartCustomer,
  updateCart,
  updateLineItem,
} from './cart-flow.ts';
import { Cart, CartEnvelope, LineItemDeleted } from './cart-schema.ts';
import { completeCart } from './complete.ts';

const tags = ['carts'];
// Medusa storefronts send `fields`; the cart always has Medusa's default fields, so it is accepted and not needed.
const CartQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });
const EmptyBody = Type.Object({}, { additionalProperties: false });

/** The schema of a change to one cart (`{id}`, Medusa's `fields`): its body, answered with the cart. */
const onCart = <Body extends TSchema>(summary: string, body: Body) => ({
  tags,
  summary,
  params: IdParams,
  querystring: CartQuery,
  body,
  response: ok(CartEnvelope),
});

/** Every /store/carts route: the cart, its lines, its shipping method, its customer, and completing it. */
export const storeCartRoutes: RouteModule = (app) => {
  app.post(
    '/carts',
    {
      schema: {
        tags,
        summary:
          'Create a cart (default region and the key’s sales channel when not given; promo_codes applied with it)',
        querystring: CartQuery,
        body: CreateCartBody,
        response: ok(CartEnvelope),
      },
    },
    async (req) => ({ cart: await createCart(req.ctx, req.body, req.customer, req.store?.salesChannelIds ?? []) }),
  );

  app.get(
    '/carts/:id',
    { schema: { tags, summary: 'Get a cart', params: IdParams, querystring: CartQuery, response: ok(CartEnvelope) } },
    async (req) => ({ cart: await getCart(req.ctx, req.params.id, cartAccess(req)) }),
  );

  app.post(
    '/carts/:id',
    { schema: onCart('Update a cart (email, region, addresses, metadata)', UpdateCartBody) },
    async (req) => ({ cart: await updateCart(req.ctx, req.params.id, req.body, cartAccess(req)) }),
  );

  app.post(
    '/carts/:id/customer',
    {
      schema: onCart('Bind the cart to the signed-in customer', EmptyBody),
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({
      cart: await setCartCustomer(req.ctx, req.params.id, requireCustomer(req), cartAccess(req).channelIds),
    }),
  );

  app.post(
    '/carts/:id/line-items',
    { schema: onCart('Add a line item (same variant and metadata: quantities add up)', LineItemInput) },
    async (req) => ({ cart: await addLineItem(req.ctx, req.params.id, req.body, cartAccess(req)) }),
  );

  app.post(
    '/carts/:id/line-items/:line_id',
    {
      schema: {
        tags,
        summary: 'Change a line item quantity (0 removes it)',
        params: LineItemParams,
        querystring: CartQuery,
        body: UpdateLineItemBody,
        response: ok(CartEnvelope),
      },
    },
    async (req) => ({
      cart: await updateLineItem(req.ctx, req.params.id, req.params.line_id, req.body, cartAccess(req)),
    }),
  );

  app.delete(
    '/carts/:id/line-items/:line_id',
    {
      schema: {
        tags,
        summary: 'Remove a line item',
        params: LineItemParams,
        querystring: CartQuery,
        response: ok(LineItemDeleted),
      },
    },
    async (req) => deleteLineItem(req.ctx, req.params.id, req.params.line_id, cartAccess(req)),
  );

  app.post(
    '/carts/:id/shipping-methods',
    {
      schema: onCart(
        'Choose a shipping option offered to the cart (replaces the method of the same shipping profile)',
        AddShippingMethodBody,
      ),
    },
    async (req) => ({
      cart: await addShippingMethod(req.ctx, req.params.id, req.body, cartAccess(req), req.server.providers),
    }),
  );

  app.post(
    '/carts/:id/promotions',
    {
      schema: onCart('Apply promotion codes (a code that cannot discount the cart is a 400 naming it)', PromoCodesBody),
    },
    async (req) => ({
      cart: await changeCartCodes(req.ctx, req.params.id, req.body.promo_codes, 'add', cartAccess(req)),
    }),
  );

  app.delete('/carts/:id/promotions', { schema: onCart('Remove promotion codes', PromoCodesBody) }, async (req) => ({
    cart: await changeCartCodes(req.ctx, req.params.id, req.body.promo_codes, 'remove', cartAccess(req)),
  }));

  app.post(
    '/carts/:id/taxes',
    {
      schema: onCart('Calculate taxes now (also in a region whose automatic_taxes is off)', EmptyBody),
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ cart: await calculateCartTaxes(req.ctx, req.params.id, cartAccess(req)) }),
  );

  app.post(
    '/carts/:id/complete',
    {
      schema: {
        tags,
        summary:
          'Place the order (idempotent). Without a payment session, the manual provider pp_system_default authorizes the total',
        params: IdParams,
        querystring: CartQuery,
        body: EmptyBody,
        response: ok(
          Type.Union([
            CompleteCartResponse,
            Type.Object({
              type: Type.Literal('cart'),
              cart: Cart,
              error: Type.Object({ message: Type.String(), name: Type.String(), type: Type.String() }),
            }),
          ]),
        ),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => completeCart(req.ctx, req.params.id, cartAccess(req), req.server.providers),
  );
};
