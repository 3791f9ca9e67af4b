import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { executor, type TxCtx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { currencyOfRow } from '../../platform/money/currency-lookup.ts';
import { assertLocation } from '../inventory/restock.ts';
import { onLockedOrder } from '../orders/desk.ts';
import type { OrderRow } from '../orders/queries.ts';
import { orders } from '../orders/tables.ts';
import {
  beginReceive,
  cancelReceive,
  confirmReceive,
  receiveItems,
  removeReceiveAction,
  updateReceiveAction,
} from './receive.ts';
import {
  addShipping,
  answer,
  cancelRequest,
  cancelReturn,
  confirmRequest,
  createReturn,
  editRequestAction,
  onLockedReturn,
  requestItems,
  updateReturnShipping,
} from './request.ts';
import * as rq from './queries.ts';
import {
  ActionParams,
  CreateReturnBody,
  NotifyBody,
  ReceiveItemsBody,
  RequestItemsBody,
  ReturnEnvelope,
  ReturnList,
  ReturnPreviewEnvelope,
  ReturnQuery,
  ShippingMethodBody,
  UpdateReceiveActionBody,
  UpdateRequestItemBody,
  UpdateReturnBody,
  UpdateShippingActionBody,
} from './schema.ts';
import { type ReturnCarrier, withReturnCarrier } from './return-fulfillment.ts';
import { type ReturnQuotes, withReturnQuotes } from './return-shipping-quote.ts';
import { returnView, returnViews } from './views.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['returns'];
const preview = ok(ReturnPreviewEnvelope);
const list = (v: string | string[] | undefined) => (v === undefined ? undefined : [v].flat());

const o = tableAs(orders, 'o');

/** Amounts in a return's bodies are in its order's currency. */
const returnCurrency = async (req: FastifyRequest) => {
  const id = (req.params as { id?: string }).id;
  const [row] = await rows<{ currency_code: string }>(
    req.ctx.db,
    sql`select ${o.currency_code} from returns r join ${from(o)} on ${o.id} = r.order_id where r.id = ${id ?? ''}`,
  );
  return row?.currency_code;
};

/** Medusa's `/admin/returns`: request items, ship them back, receive them (whole, partly, damaged). */
export const adminReturnRoutes: RouteModule = adminResource('orders', (app) => {
  app.get(
    '/returns',
    { schema: { tags, summary: 'List returns', querystring: ReturnQuery, response: ok(ReturnList) } },
    async (req) => {
      const page = pageOf(req.query, 20);
      const f = { id: list(req.query.id), order_id: list(req.query.order_id), status: list(req.query.status) };
      const db = executor(req.ctx);
      const found = await rq.listReturnRows(db, f, page);
      return { returns: await returnViews(db, found), count: await rq.countReturnRows(db, f), ...page };
    },
  );
  app.get(
    '/returns/:id',
    { schema: { tags, summary: 'Get a return', params: IdParams, response: ok(ReturnEnvelope) } },
    async (req) => ({ return: await returnView(executor(req.ctx), req.params.id) }),
  );
  app.post(
    '/returns',
    {
      schema: { tags, summary: 'Start a return on an order', body: CreateReturnBody, response: preview },
      config: { moneyCurrency: currencyOfRow('orders', (req) => (req.body as { order_id?: string }).order_id) },
    },
    async (req) =>
      onLockedOrder(req.ctx, req.body.order_id, async (tctx, order) => {
        const ret = await createReturn(tctx, order, req.body);
        return answer(tctx, order.id, ret.id);
      }),
  );
  app.post(
    '/returns/:id',
    { schema: { tags, summary: 'Update a return', params: IdParams, body: UpdateReturnBody, response: preview } },
    // Another location is another return label: one asked before is canceled at its carrier.
    async (req) =>
      withReturnCarrier(req.ctx, app.providers, (carrier) =>
        onLockedReturn(req.ctx, req.params.id, async (tctx, order, ret) => {
          if (req.body.location_id) await assertLocation(tctx.tx, req.body.location_id);
          if (req.body.location_id !== undefined) carrier.requestChanged(order.id, ret.id);
          await rq.updateReturn(tctx.tx, ret.id, { ...req.body, updated_at: tctx.clock.now() });
          return answer(tctx, order.id, ret.id);
        }),
      ),
  );

  /**
   * Runs `fn` on the locked return and answers its preview. A step that needs the carrier (a
   * return label, a calculated price) stops for it, asks it with the order unlocked and runs again.
   */
  const withCarrier = (
    req: FastifyRequest,
    returnId: string,
    fn: (
      tctx: TxCtx,
      order: OrderRow,
      ret: rq.ReturnRow,
      carrier: ReturnCarrier,
      quotes: ReturnQuotes,
    ) => Promise<void>,
  ) =>
    withReturnQuotes(app.providers, (quotes) =>
      withReturnCarrier(req.ctx, app.providers, (carrier) =>
        onLockedReturn(req.ctx, returnId, async (tctx, order, ret) => {
          await fn(tctx, order, ret, carrier, quotes);
          return answer(tctx, order.id, ret.id);
        }),
      ),
    );
  const step = <
    B extends typeof RequestItemsBody | typeof ShippingMethodBody | typeof NotifyBody | typeof ReceiveItemsBody,
  >(
    path: string,
    summary: string,
    body: B,
    run: (
      tctx: TxCtx,
      order: OrderRow,
      ret: rq.ReturnRow,
      body: Static<B>,
      carrier: ReturnCarrier,
      quotes: ReturnQuotes,
    ) => Promise<void>,
  ) =>
    app.post(
      `/returns/:id/${path}`,
      {
        schema: { tags, summary, params: IdParams, body, response: preview },
        preValidation: emptyBodyIsObject,
        config: { moneyCurrency: returnCurrency },
      },
      async (req) =>
        withCarrier(req, req.params.id, (tctx, order, ret, carrier, quotes) =>
          // Fastify resolves a generic schema's type lazily, so TS cannot see the validated body is Static<B>.
          run(tctx, order, ret, req.body as Static<B>, carrier, quotes),
        ),
    );

  // A calculated return shipping already chosen is priced again for the items now asked back.
  step(
    'request-items',
    'Ask items back, with a reason and a note',
    RequestItemsBody,
    (tctx, order, ret, body, carrier, quotes) => {
      carrier.requestChanged(order.id, ret.id);
      return requestItems(tctx, ret, body, { order, quotes });
    },
  );
  // Not a plain step: a calculated option's carrier is asked with the order unlocked, then the step runs.
  app.post(
    '/returns/:id/shipping-method',
    {
      schema: {
        tags,
        summary: 'Set the return shipping and its price (a calculated option: its carrier quotes the items)',
        params: IdParams,
        body: ShippingMethodBody,
        response: preview,
      },
      preValidation: emptyBodyIsObject,
      config: { moneyCurrency: returnCurrency },
    },
    async (req) =>
      withCarrier(req, req.params.id, (tctx, order, ret, carrier, quotes) => {
        carrier.requestChanged(order.id, ret.id);
        return addShipping(tctx, ret, req.body, { order, quotes });
      }),
  );
  step(
    'request',
    'Confirm the request (event order.return_requested)',
    NotifyBody,
    (tctx, order, ret, body: { no_notification?: boolean }, carrier) =>
      confirmRequest(tctx, order, ret, carrier, body.no_notification),
  );
  step(
    'receive',
    'Start receiving the return',
    NotifyBody,
    (tctx, order, ret, body: { description?: string; internal_note?: string }) => beginReceive(tctx, order, ret, body),
  );
  step(
    'receive-items',
    'Items that arrived sellable (restocked on confirmation)',
    ReceiveItemsBody,
    (tctx, _o, ret, body) => receiveItems(tctx, ret, body, false),
  );
  step('dismiss-items', 'Items that arrived damaged (not restocked)', ReceiveItemsBody, (tctx, _o, ret, body) =>
    receiveItems(tctx, ret, body, true),
  );
  step(
    'receive/confirm',
    'Confirm the receipt: restock, and the refund owed (event order.return_received)',
    NotifyBody,
    (tctx, order, ret, body: { no_notification?: boolean }) => confirmReceive(tctx, order, ret, body.no_notification),
  );

  /** `POST /returns/{id}/{path}/{action_id}`: changes one pending action of the return. */
  const changeAction = <B extends TSchema>(
    path: string,
    summary: string,
    body: B,
    run: (
      tctx: TxCtx,
      ret: rq.ReturnRow,
      actionId: string,
      body: Static<B>,
      quoting: { order: OrderRow; quotes: ReturnQuotes },
      carrier: ReturnCarrier,
    ) => Promise<void>,
  ) =>
    app.post(
      `/returns/:id/${path}/:action_id`,
      {
        schema: { tags, summary, params: ActionParams, body, response: preview },
        preValidation: emptyBodyIsObject,
        config: { moneyCurrency: returnCurrency },
      },
      // A calculated option's price put back is its carrier's quote, asked with the order unlocked.
      async (req) =>
        withCarrier(req, req.params.id, (tctx, order, ret, carrier, quotes) =>
          run(tctx, ret, req.params.action_id, req.body as Static<B>, { order, quotes }, carrier),
        ),
    );
  changeAction(
    'request-items',
    'Change an item asked back',
    UpdateRequestItemBody,
    (tctx, ret, id, body, quoting, carrier) => {
      carrier.requestChanged(ret.order_id, ret.id);
      return editRequestAction(tctx, ret, id, 'RETURN_ITEM', body, quoting);
    },
  );
  changeAction(
    'shipping-method',
    "Change the return shipping's price (custom_amount; null: the option's), note or metadata",
    UpdateShippingActionBody,
    updateReturnShipping,
  );
  changeAction(
    'receive-items',
    'Change a sellable receipt (quantity, note)',
    UpdateReceiveActionBody,
    (tctx, ret, id, body) => updateReceiveAction(tctx, ret, id, 'sellable', body),
  );
  changeAction(
    'dismiss-items',
    'Change a damaged receipt (quantity, note)',
    UpdateReceiveActionBody,
    (tctx, ret, id, body) => updateReceiveAction(tctx, ret, id, 'damaged', body),
  );

  for (const [path, kind] of [
    ['request-items', 'RETURN_ITEM'],
    ['shipping-method', 'SHIPPING_ADD'],
  ] as const) {
    app.delete(
      `/returns/:id/${path}/:action_id`,
      { schema: { tags, summary: `Remove a pending ${path} action`, params: ActionParams, response: preview } },
      // An item removed: a calculated return shipping is quoted again (its carrier asked with the order unlocked).
      async (req) =>
        withCarrier(req, req.params.id, (tctx, order, ret, carrier, quotes) => {
          carrier.requestChanged(order.id, ret.id);
          return editRequestAction(tctx, ret, req.params.action_id, kind, null, { order, quotes });
        }),
    );
  }
  for (const path of ['receive-items', 'dismiss-items'])
    app.delete(
      `/returns/:id/${path}/:action_id`,
      { schema: { tags, summary: `Remove a pending ${path} action`, params: ActionParams, response: preview } },
      async (req) =>
        onLockedReturn(req.ctx, req.params.id, async (tctx, order, ret) => {
          await removeReceiveAction(tctx, ret, req.params.action_id);
          return answer(tctx, order.id, ret.id);
        }),
    );

  app.delete(
    '/returns/:id/request',
    {
      schema: {
        tags,
        summary: 'Drop a return still being requested',
        params: IdParams,
        response: ok(deletedEnvelope('return')),
      },
    },
    // A label asked for the request and never answered is canceled at its carrier after the drop.
    async (req) => {
      await withReturnCarrier(req.ctx, app.providers, (carrier) =>
        onLockedReturn(req.ctx, req.params.id, (tctx, _o, ret) => cancelRequest(tctx, ret, carrier)),
      );
      return { id: req.params.id, object: 'return', deleted: true as const };
    },
  );
  app.delete(
    '/returns/:id/receive',
    { schema: { tags, summary: 'Drop a receipt in progress', params: IdParams, response: ok(ReturnEnvelope) } },
    async (req) =>
      onLockedReturn(req.ctx, req.params.id, async (tctx, _o, ret) => {
        await cancelReceive(tctx, ret);
        return { return: await returnView(tctx.tx, ret.id) };
      }),
  );
  app.post(
    '/returns/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a return nothing of which was received',
        params: IdParams,
        body: NotifyBody,
        response: ok(ReturnEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    // Its parcels are canceled at their carrier with the order unlocked (return-fulfillment.ts).
    async (req) =>
      withReturnCarrier(req.ctx, app.providers, (carrier) =>
        onLockedReturn(req.ctx, req.params.id, async (tctx, order, ret) => {
          await cancelReturn(tctx, order, ret, carrier);
          return { return: await returnView(tctx.tx, ret.id) };
        }),
      ),
  );
});
