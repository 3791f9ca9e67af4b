import type { TSchema } from 'typebox';
import type { Ctx } from '../../platform/context.ts';
import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { deletedEnvelope } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App } from '../../platform/http/types.ts';
import { currencyOfRow, paramId } from '../../platform/money/currency-lookup.ts';
import type { OrderPreview } from '../orders/changes/views.ts';
import type { LockScope } from '../orders/desk.ts';
import { EmptyBody } from '../orders/desk-schema.ts';
import { ActionParams, ItemParams, UpdateItemBody } from './schema.ts';
import { cancelEdit, requestEdit, updateAddedItem, updateOriginalItem } from './service.ts';

/**
 * What tells an order's edit (`/order-edits/{order id}`) from a draft's (`/draft-orders/{id}/edit`)
 * in the routes they share: the lock's scope, and the preview each answers with.
 */
export interface EditRoutes {
  base: string;
  tags: string[];
  scope: LockScope;
  /** The answer's schema: `{ order_preview }` or `{ draft_order_preview }`. */
  envelope: TSchema;
  /** Runs a step on the edit and answers with the preview it leaves. */
  answer: (ctx: Ctx, id: string, step: () => Promise<OrderPreview>) => Promise<Record<string, OrderPreview>>;
  /** The `object` of the answer when the edit is canceled. */
  object: string;
}

// Prices in edit bodies are in the order's (or draft's) currency; `{id}` is the order's id, as in Medusa.
const config = { moneyCurrency: currencyOfRow('orders', paramId) };

/** `POST {base}/items/item/{item_id}` and `POST {base}/items/{action_id}`: a line's quantity or price. */
export function lineChangeRoutes(app: App, e: EditRoutes) {
  const change = <P extends TSchema>(summary: string, params: P) => ({
    schema: { tags: e.tags, summary, params, body: UpdateItemBody, response: ok(e.envelope) },
    config,
  });
  app.post(
    `${e.base}/items/item/:item_id`,
    change("Change a line's quantity or price (0 removes it)", ItemParams),
    async (req) =>
      e.answer(req.ctx, req.params.id, () =>
        updateOriginalItem(req.ctx, req.params.id, req.params.item_id, req.body, e.scope),
      ),
  );
  app.post(`${e.base}/items/:action_id`, change('Change an item this edit adds', ActionParams), async (req) =>
    e.answer(req.ctx, req.params.id, () =>
      updateAddedItem(req.ctx, req.params.id, req.params.action_id, req.body, e.scope),
    ),
  );
}

/** `POST {base}/request`: the edit is ready to confirm. */
export function requestEditRoute(app: App, e: EditRoutes) {
  app.post(
    `${e.base}/request`,
    {
      schema: {
        tags: e.tags,
        summary: 'Request the edit (ready to confirm)',
        params: IdParams,
        body: EmptyBody,
        response: ok(e.envelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => e.answer(req.ctx, req.params.id, () => requestEdit(req.ctx, req.params.id, e.scope)),
  );
}

/** `DELETE {base}`: the edit is dropped, the order (or draft) left as it was. */
export function cancelEditRoute(app: App, e: EditRoutes) {
  app.delete(
    e.base,
    {
      schema: { tags: e.tags, summary: 'Cancel the edit', params: IdParams, response: ok(deletedEnvelope(e.object)) },
    },
    async (req) => {
      await cancelEdit(req.ctx, req.params.id, e.scope);
      return { id: req.params.id, object: e.object, deleted: true as const };
    },
  );
}
