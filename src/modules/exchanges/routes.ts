import type { FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Static, TSchema } from 'typebox';
import { executor, type TxCtx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import { AddItemsBody } from '../order-edits/schema.ts';
import type { OrderRow } from '../orders/queries.ts';
import { orders } from '../orders/tables.ts';
import { type ReturnCarrier, withReturnCarrier } from '../returns/return-fulfillment.ts';
import { type ReturnQuotes, withReturnQuotes } from '../returns/return-shipping-quote.ts';
import { RequestItemsBody, ShippingMethodBody, UpdateShippingActionBody } from '../returns/schema.ts';
import * as xq from './queries.ts';
import type { SwapKind, SwapRow } from './queries.ts';
import {
  CancelBody,
  ClaimItemsBody,
  CreateClaimBody,
  CreateExchangeBody,
  envelopes,
  SwapActionParams,
  SwapQuery,
  UpdateActionBody,
} from './schema.ts';
import { cancelSwap } from './cancel-swap.ts';
import { confirmSwap } from './confirm-swap.ts';
import { createSwap } from './create-swap.ts';
import { swapAnswer } from './swap-answer.ts';
import { onLockedSwap, swapNotFound } from './swap-guards.ts';
import {
  addClaimItems,
  addInboundItems,
  addOutboundItems,
  addShipping,
  editSwapAction,
  updateShipping,
} from './swap-legs.ts';
import { swapView, swapViews } from './views.ts';

const list = (v: string | string[] | undefined) => (v === undefined ? undefined : [v].flat());
type ActionKind = 'RETURN_ITEM' | 'ITEM_ADD' | 'WRITE_OFF_ITEM';
type Step<Body> = (
  tctx: TxCtx,
  order: OrderRow,
  swap: SwapRow,
  body: Body,
  quotes: ReturnQuotes,
  carrier: ReturnCarrier,
) => Promise<void>;

/**
 * Medusa's `/admin/exchanges` and `/admin/claims`, one builder for both: they share their legs
 * (inbound items and shipping, outbound items and shipping), request and cancel. A claim adds its
 * claimed items (`/claim-items`).
 */
const o = tableAs(orders, 'o');

function swapRoutes(app: App, kind: SwapKind) {
  const key = kind;
  const base = `/${kind}s`;
  const tags = [`${kind}s`];
  const E = envelopes(kind);
  const table = kind === 'exchange' ? 'order_exchanges' : 'order_claims';
  /** Amounts in the bodies are in the order's currency. */
  const moneyCurrency = async (req: FastifyRequest) => {
    const id = (req.params as { id?: string }).id ?? '';
    const [row] = await rows<{ currency_code: string }>(
      req.ctx.db,
      sql`select ${o.currency_code} from ${sql.identifier(table)} s join ${from(o)} on ${o.id} = s.order_id where s.id = ${id}`,
    );
    return row?.currency_code;
  };
  const answer = async (tctx: TxCtx, id: string, withReturn = false) => {
    const { swap, ...rest } = await swapAnswer(tctx, kind, id, withReturn);
    return { ...rest, [key]: swap };
  };

  app.get(
    base,
    { schema: { tags, summary: `List ${kind}s`, querystring: SwapQuery, response: ok(E.list) } },
    async (req) => {
      const page = pageOf(req.query, 20);
      const f = { id: list(req.query.id), order_id: list(req.query.order_id) };
      const db = executor(req.ctx);
      const views = await swapViews(db, kind, await xq.listSwaps(db, kind, f, page));
      const count = await xq.countSwaps(db, kind, f);
      return kind === 'exchange' ? { exchanges: views, count, ...page } : { claims: views, count, ...page };
    },
  );
  app.get(
    `${base}/:id`,
    { schema: { tags, summary: `Get a ${kind}`, params: IdParams, response: ok(E.one) } },
    async (req) => {
      const db = executor(req.ctx);
      const row = await xq.findSwap(db, kind, req.params.id);
      if (!row) throw swapNotFound(kind, req.params.id);
      return { [key]: await swapView(db, kind, row) };
    },
  );
  app.post(
    base,
    {
      schema: {
        tags,
        summary: `Start a${kind === 'exchange' ? 'n exchange' : ' claim'} on an order`,
        body: kind === 'exchange' ? CreateExchangeBody : CreateClaimBody,
        response: ok(E.created),
      },
    },
    async (req) => {
      const { order, swap } = await createSwap(req.ctx, kind, req.body);
      return { order, [key]: swap };
    },
  );

  // A step that prices return shipping by a calculated option stops for its carrier's quote, which
  // is asked with the order unlocked, and runs again with it (return-shipping-quote.ts). A step that
  // changes the return leg names it to the carrier: a label asked before is canceled after the step.
  const step = <B extends TSchema, P extends typeof IdParams = typeof IdParams>(
    path: string,
    summary: string,
    body: B,
    run: Step<Static<B> & Static<P>>,
    params?: P,
  ) =>
    app.post(
      `${base}/:id/${path}`,
      {
        schema: { tags, summary, params: params ?? IdParams, body, response: ok(E.requested) },
        preValidation: emptyBodyIsObject,
        config: { moneyCurrency },
      },
      async (req) => {
        // Fastify resolves the types of a generic schema lazily, so TS cannot see them as Static<B> and Static<P>.
        const input = Object.assign({}, req.body as Static<B>, req.params as Static<P>);
        return withReturnQuotes(app.providers, (quotes) =>
          withReturnCarrier(req.ctx, app.providers, (carrier) =>
            onLockedSwap(req.ctx, kind, input.id, async (tctx, order, swap) => {
              await run(tctx, order, swap, input, quotes, carrier);
              return answer(tctx, swap.id, true);
            }),
          ),
        );
      },
    );
  const remove = (path: string, summary: string, run: Step<Static<typeof SwapActionParams>>) =>
    app.delete(
      `${base}/:id/${path}/:action_id`,
      { schema: { tags, summary, params: SwapActionParams, response: ok(E.requested) } },
      // An item removed: the calculated shipping of its leg is quoted again, its carrier asked unlocked.
      async (req) =>
        withReturnQuotes(app.providers, (quotes) =>
          withReturnCarrier(req.ctx, app.providers, (carrier) =>
            onLockedSwap(req.ctx, kind, req.params.id, async (tctx, order, swap) => {
              await run(tctx, order, swap, req.params, quotes, carrier);
              return answer(tctx, swap.id, true);
            }),
          ),
        ),
    );
  type Patch = { action_id: string; quantity?: number; reason_id?: string | null; internal_note?: string | null };
  type ShippingPatch = Static<typeof UpdateShippingActionBody> & { action_id: string };
  /** `POST {path}/:action_id` changes an item action of the leg, `DELETE` the same path removes it. */
  const changeAndRemove = (path: string, action: ActionKind, change: string, removal: string) => {
    // Items asked back changed: a return label asked before is no retry's (canceled at its carrier).
    const changing = (carrier: ReturnCarrier, order: OrderRow, swap: SwapRow) => {
      if (action === 'RETURN_ITEM') carrier.requestChanged(order.id, swap.return_id);
    };
    step(
      `${path}/:action_id`,
      change,
      UpdateActionBody,
      (tctx, order, swap, b: Patch, quotes, carrier) => {
        changing(carrier, order, swap);
        return editSwapAction(tctx, kind, order, swap, b.action_id, [action], b, quotes);
      },
      SwapActionParams,
    );
    remove(path, removal, (tctx, order, swap, b: Patch, quotes, carrier) => {
      changing(carrier, order, swap);
      return editSwapAction(tctx, kind, order, swap, b.action_id, [action], null, quotes);
    });
  };
  const changeShipping = (direction: 'inbound' | 'outbound', summary: string) =>
    step(
      `${direction}/shipping-method/:action_id`,
      summary,
      UpdateShippingActionBody,
      (tctx, order, swap, { action_id, ...patch }: ShippingPatch, quotes) =>
        updateShipping(tctx, kind, order, swap, action_id, direction, patch, quotes),
      SwapActionParams,
    );

  step('inbound/items', 'Add items to bring back', RequestItemsBody, (tctx, order, swap, body, quotes, carrier) => {
    carrier.requestChanged(order.id, swap.return_id);
    return addInboundItems(tctx, kind, order, swap, body, quotes);
  });
  changeAndRemove('inbound/items', 'RETURN_ITEM', 'Change an item to bring back', 'Remove an item to bring back');
  step(
    'inbound/shipping-method',
    'Return shipping (the shopper pays it; a calculated option: its carrier quotes the items)',
    ShippingMethodBody,
    (tctx, order, swap, body, quotes, carrier) => {
      carrier.requestChanged(order.id, swap.return_id);
      return addShipping(tctx, kind, order, swap, body, 'inbound', quotes);
    },
  );
  changeShipping('inbound', "Change the return shipping's price (custom_amount; null: the option's), note or metadata");
  remove('inbound/shipping-method', 'Remove the return shipping', (tctx, order, swap, b: Patch, quotes, carrier) => {
    carrier.requestChanged(order.id, swap.return_id);
    return editSwapAction(tctx, kind, order, swap, b.action_id, ['SHIPPING_ADD'], null, quotes, 'inbound');
  });
  step(
    'outbound/items',
    kind === 'exchange' ? 'Add new items to send (at their price)' : 'Add replacements to send (at no charge)',
    AddItemsBody,
    (tctx, order, swap, body, quotes) => addOutboundItems(tctx, kind, order, swap, body, quotes),
  );
  changeAndRemove('outbound/items', 'ITEM_ADD', 'Change a new item to send', 'Remove a new item to send');
  step('outbound/shipping-method', 'Shipping of the new items', ShippingMethodBody, (tctx, order, swap, body, quotes) =>
    addShipping(tctx, kind, order, swap, body, 'outbound', quotes),
  );
  changeShipping(
    'outbound',
    "Change the new items' shipping price (custom_amount; null: the option's), note or metadata",
  );
  remove('outbound/shipping-method', 'Remove the shipping of the new items', (tctx, order, swap, b: Patch, quotes) =>
    editSwapAction(tctx, kind, order, swap, b.action_id, ['SHIPPING_ADD'], null, quotes, 'outbound'),
  );
  if (kind === 'claim') {
    step('claim-items', 'Add claimed items with a reason', ClaimItemsBody, (tctx, order, swap, body) =>
      addClaimItems(tctx, order, swap, body),
    );
    changeAndRemove('claim-items', 'WRITE_OFF_ITEM', 'Change a claimed item', 'Remove a claimed item');
  }

  app.post(
    `${base}/:id/request`,
    {
      schema: {
        tags,
        summary: `Confirm the ${kind} into a new order version (event order.${kind}_created)`,
        params: IdParams,
        body: CancelBody,
        response: ok(E.requested),
      },
      preValidation: emptyBodyIsObject,
    },
    // The return leg's label is asked of its carrier with the order unlocked (returns/return-fulfillment.ts).
    async (req) =>
      withReturnCarrier(req.ctx, req.server.providers, (carrier) =>
        onLockedSwap(req.ctx, kind, req.params.id, async (tctx, order, swap) => {
          if (req.body.no_notification !== undefined)
            await xq.updateSwap(tctx.tx, kind, swap.id, { no_notification: req.body.no_notification });
          await confirmSwap(
            tctx,
            kind,
            order,
            { ...swap, no_notification: req.body.no_notification ?? swap.no_notification },
            carrier,
          );
          return answer(tctx, swap.id, true);
        }),
      ),
  );
  app.delete(
    `${base}/:id/request`,
    {
      schema: {
        tags,
        summary: `Drop a ${kind} not confirmed yet`,
        params: IdParams,
        response: ok(deletedEnvelope(kind)),
      },
    },
    // A return label asked for the swap and never answered is canceled at its carrier after the drop.
    async (req) => {
      await withReturnCarrier(req.ctx, req.server.providers, (carrier) =>
        onLockedSwap(req.ctx, kind, req.params.id, (tctx, order, swap) => {
          carrier.sweepAfter(order.id);
          return cancelSwap(tctx, kind, swap);
        }),
      );
      return { id: req.params.id, object: kind, deleted: true as const };
    },
  );
  app.post(
    `${base}/:id/cancel`,
    {
      schema: {
        tags,
        summary: `Cancel a ${kind}: drop it, or undo it once confirmed (nothing fulfilled or received yet)`,
        params: IdParams,
        body: CancelBody,
        response: ok(E.one),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) =>
      withReturnCarrier(req.ctx, req.server.providers, (carrier) =>
        onLockedSwap(req.ctx, kind, req.params.id, async (tctx, order, swap) => {
          carrier.sweepAfter(order.id);
          await cancelSwap(tctx, kind, swap, order);
          return { [key]: await swapView(tctx.tx, kind, (await xq.findSwap(tctx.tx, kind, swap.id))!) };
        }),
      ),
  );
}

export const adminExchangeRoutes: RouteModule = adminResource('orders', (app) => swapRoutes(app, 'exchange'));
export const adminClaimRoutes: RouteModule = adminResource('orders', (app) => swapRoutes(app, 'claim'));
