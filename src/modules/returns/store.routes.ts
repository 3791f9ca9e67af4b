import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { ReturnEnvelope, StoreCreateReturnBody } from './schema.ts';
import { storeCreateReturn } from './store-return.ts';

export const storeReturnRoutes: RouteModule = (app) => {
  app.post(
    '/returns',
    {
      schema: {
        tags: ['returns'],
        summary: "Return items of one's own order (a guest's: with its email); event order.return_requested",
        body: StoreCreateReturnBody,
        response: ok(ReturnEnvelope),
      },
    },
    async (req) => ({
      return: await storeCreateReturn(req.ctx, req.customer?.id ?? null, req.body, req.server.providers),
    }),
  );
};
