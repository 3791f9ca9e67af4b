import { Type } from 'typebox';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { cartAccess, emptyBodyIsObject } from '../carts/access.ts';
import { CompleteCartResponse } from '../orders/schema.ts';
import { completeCart } from './service.ts';

const EmptyBody = Type.Object({}, { additionalProperties: false });
const CompleteQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });

export const storeCheckoutRoutes: RouteModule = (app) => {
  app.post(
    '/carts/:id/complete',
    {
      schema: {
        tags: ['carts'],
        summary: 'Place the order (idempotent). Without a payment session, the manual provider pp_system_default authorizes the total',
        params: IdParams,
        querystring: CompleteQuery,
        body: EmptyBody,
        response: ok(CompleteCartResponse),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ type: 'order' as const, order: await completeCart(req.ctx, req.params.id, cartAccess(req)) }),
  );
};
