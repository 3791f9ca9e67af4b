import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import * as cq from '../orders/changes/queries.ts';
import * as rq from './queries.ts';
import type { ReturnView } from './schema.ts';

export const returnNotFound = (id: string) => errors.notFound('return_not_found', { id });

/** Returns with their items, shipping and money, in three queries however many. */
export async function returnViews(db: Executor, rows: rq.ReturnRow[]): Promise<ReturnView[]> {
  const ids = rows.map((r) => r.id);
  const items = await rq.itemsOfReturns(db, ids);
  const parcels = await rq.fulfillmentsOfReturns(db, ids);
  const changes = await cq.confirmedChangesOfReturns(db, ids);
  const currencies = await rq.orderCurrencies(db, [...new Set(rows.map((r) => r.order_id))]);
  const actions = await cq.listActionsOf(
    db,
    changes.map((c) => c.id),
  );
  return rows.map((r) => {
    const mine = actions.filter((a) => a.return_id === r.id);
    const shipping = mine.filter((a) => a.action === 'SHIPPING_ADD' && a.details.direction !== 'outbound');
    const received = mine.filter((a) => a.action.startsWith('RECEIVE_')).reduce((s, a) => s - a.amount, 0);
    return {
      ...r,
      currency_code: currencies.get(r.order_id) ?? '',
      metadata: r.metadata ?? null,
      items: items.filter((i) => i.return_id === r.id).map((i) => ({ ...i, metadata: i.metadata ?? null })),
      shipping_methods: shipping.map((a) => ({
        id: a.reference_id ?? a.id,
        shipping_option_id: (a.details.shipping_option_id as string | null) ?? null,
        name: (a.details.name as string) ?? '',
        amount: a.amount,
      })),
      fulfillments: parcels
        .filter((f) => f.return_id === r.id)
        .map(({ return_id: _r, order_id: _o, ...f }) => ({ ...f, data: f.data ?? null })),
      refund_amount: Math.max(0, received - shipping.reduce((s, a) => s + a.amount, 0)),
    };
  });
}

export async function returnView(db: Executor, id: string): Promise<ReturnView> {
  const row = await rq.findReturn(db, id);
  if (!row) throw returnNotFound(id);
  return (await returnViews(db, [row]))[0];
}
