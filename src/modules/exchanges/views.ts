import type { Executor } from '../../platform/db/database.ts';
import * as cq from '../orders/changes/queries.ts';
import * as rq from '../returns/queries.ts';
import * as xq from './queries.ts';
import type { SwapKind, SwapRow } from './queries.ts';
import type { SwapViewShape } from './schema.ts';

export type SwapView = SwapViewShape;

/**
 * An exchange or claim as Medusa shows it: its items out (`additional_items`, from its change's
 * ITEM_ADD actions), its items back (`return_items`, the return's once confirmed, else the
 * actions), a claim's `claim_items`, its change's status and its order's currency.
 */
export async function swapView(db: Executor, kind: SwapKind, row: SwapRow): Promise<SwapView> {
  const [view] = await swapViews(db, kind, [row]);
  return view;
}

/** Swaps as `swapView` shows them, each related table read once for the whole page. */
export async function swapViews(db: Executor, kind: SwapKind, rows: SwapRow[]): Promise<SwapView[]> {
  const ownKey = kind === 'exchange' ? 'exchange_id' : 'claim_id';
  const changes = await xq.changesOfSwaps(
    db,
    kind,
    rows.map((r) => r.id),
  );
  // Each swap's own change (confirmed), not the one that undid it.
  const changeOf = new Map<string, cq.ChangeRow>();
  for (const r of rows) {
    const mine = changes.filter((c) => c[ownKey] === r.id);
    const change = mine.find((c) => c.status === 'confirmed') ?? mine.at(-1);
    if (change) changeOf.set(r.id, change);
  }
  const actions = await cq.listActionsOf(
    db,
    [...changeOf.values()].map((c) => c.id),
  );
  const returned = await rq.itemsOfReturns(
    db,
    rows.flatMap((r) => (r.return_id ? [r.return_id] : [])),
  );
  const claimed =
    kind === 'claim'
      ? await xq.claimItemsOf(
          db,
          rows.map((r) => r.id),
        )
      : [];
  const currencies = await rq.orderCurrencies(db, [...new Set(rows.map((r) => r.order_id))]);
  return rows.map((row) => {
    const change = changeOf.get(row.id);
    const own = change ? actions.filter((a) => a.order_change_id === change.id) : [];
    const itsReturn = row.return_id ? returned.filter((i) => i.return_id === row.return_id) : [];
    const itsClaims = claimed.filter((c) => c.claim_id === row.id);
    return assemble(kind, row, change, own, itsReturn, itsClaims, currencies.get(row.order_id) ?? '');
  });
}

function assemble(
  kind: SwapKind,
  row: SwapRow,
  change: cq.ChangeRow | undefined,
  actions: cq.ActionRow[],
  returned: rq.ReturnItemRow[],
  claimed: xq.ClaimItemRow[],
  currency_code: string,
): SwapView {
  const ownKey = kind === 'exchange' ? 'exchange_id' : 'claim_id';
  const additional_items = actions
    .filter((a) => a.action === 'ITEM_ADD')
    .map((a) => ({
      id: a.id,
      [ownKey]: row.id,
      item_id: a.reference_id ?? '',
      variant_id: (a.details.variant_id as string) ?? null,
      quantity: a.details.quantity ?? 0,
      unit_price: a.details.unit_price ?? 0,
    }));
  const return_items = returned.length
    ? returned.map((i) => ({ id: i.id, item_id: i.item_id, quantity: i.quantity, reason_id: i.reason_id }))
    : actions
        .filter((a) => a.action === 'RETURN_ITEM')
        .map((a) => ({
          id: a.id,
          item_id: a.reference_id ?? '',
          quantity: a.details.quantity ?? 0,
          reason_id: a.details.reason_id ?? null,
        }));
  const claim_items = claimed.length
    ? claimed.map((c) => ({ id: c.id, item_id: c.item_id, quantity: c.quantity, reason: c.reason, note: c.note }))
    : actions
        .filter((a) => a.action === 'WRITE_OFF_ITEM')
        .map((a) => ({
          id: a.id,
          item_id: a.reference_id ?? '',
          quantity: a.details.quantity ?? 0,
          reason: String(a.details.reason ?? 'other'),
          note: (a.details.note as string | null) ?? null,
        }));
  return {
    ...row,
    currency_code,
    metadata: row.metadata ?? null,
    status: row.canceled_at ? 'canceled' : (change?.status ?? 'pending'),
    order_change_id: change?.id ?? null,
    additional_items: additional_items as SwapView['additional_items'],
    return_items,
    ...(kind === 'claim' ? { claim_items } : {}),
  } as SwapView;
}
