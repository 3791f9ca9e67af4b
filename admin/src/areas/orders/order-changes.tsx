import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api.ts';
import { Card, ErrorNote } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import type { Preview } from './change-preview.tsx';
import { ChangeFooter, ChangeForm, LineQuantities, useOrderAction, usePendingChange } from './change-flow.tsx';
import { ParcelLabels, type ParcelLabel } from './parcel-labels.tsx';
import type { Order, OrderItem } from './types.ts';
import { useApi } from '../../lib/api-hooks.ts';

/**
 * The order's after-sale actions, each previewed before it is confirmed: an edit (quantities), a
 * return (items asked back), and receiving a requested return (restocked). The preview is the
 * server's (`order_preview`, shown by ChangePreview); exchanges and claims are in order-swaps.tsx.
 */

interface ReturnRow {
  id: string;
  status: string;
  items: { item_id: string; quantity: number; received_quantity: number }[];
  /** Parcels its return shipping's provider made: the label the shopper prints, the tracking. */
  fulfillments: {
    id: string;
    canceled_at: string | null;
    labels: ParcelLabel[];
  }[];
}

/** Change quantities of the order's lines (not below what was fulfilled): preview, then confirm or discard. */
export function EditPanel({ order }: { order: Order }) {
  const [qty, setQty] = useState<Record<string, string>>(() =>
    Object.fromEntries(order.items.map((i) => [i.id, String(i.quantity)])),
  );
  const change = usePendingChange({
    orderId: order.id,
    build: async () => {
      await api('/admin/order-edits', { method: 'POST', body: { order_id: order.id } });
      let last: Preview | null = null;
      for (const i of order.items) {
        const q = Number(qty[i.id] ?? i.quantity);
        if (q === i.quantity) continue;
        last = (
          await api<{ order_preview: Preview }>(`/admin/order-edits/${order.id}/items/item/${i.id}`, {
            method: 'POST',
            body: { quantity: q },
          })
        ).order_preview;
      }
      return last && { id: order.id, preview: last };
    },
    confirm: async () => {
      await api(`/admin/order-edits/${order.id}/request`, { method: 'POST', body: {} });
      await api(`/admin/order-edits/${order.id}/confirm`, { method: 'POST', body: {} });
    },
    discard: () => api(`/admin/order-edits/${order.id}`, { method: 'DELETE' }),
    done: { confirmed: 'Order edit confirmed', discarded: 'Order edit discarded' },
  });
  return (
    <Card title="Edit order">
      <ChangeForm label="Edit order" kind="edit" change={change}>
        <LineQuantities
          lines={order.items}
          name="edit"
          label={(i) => `${i.title}: quantity (at least ${i.detail.fulfilled_quantity})`}
          min={(i) => i.detail.fulfilled_quantity}
          values={qty}
          fallback=""
          disabled={!!change.pending}
          onChange={setQty}
        />
      </ChangeForm>
      <ChangeFooter kind="edit" order={order} change={change} />
    </Card>
  );
}

/**
 * Units of a line that can still be asked back: fulfilled, less those back already and those a
 * requested return is still waiting for (the server refuses more, as Medusa does).
 */
export const returnable = (i: OrderItem) =>
  Math.max(0, i.detail.fulfilled_quantity - i.detail.returned_quantity - i.detail.return_requested_quantity);

/** Why a line's limit is what it is, when returns already count against it. */
export function returnHint(i: OrderItem): string | undefined {
  const parts = [
    `${i.detail.fulfilled_quantity} fulfilled`,
    i.detail.returned_quantity ? `${i.detail.returned_quantity} returned` : '',
    i.detail.return_requested_quantity ? `${i.detail.return_requested_quantity} awaited on a requested return` : '',
  ].filter(Boolean);
  return parts.length > 1 ? parts.join(', ') : undefined;
}

/** Ask fulfilled items back: preview what the order will owe, then confirm the request. */
export function ReturnPanel({ order }: { order: Order }) {
  const open = order.items.filter((i) => returnable(i) > 0);
  const [qty, setQty] = useState<Record<string, string>>(() => Object.fromEntries(open.map((i) => [i.id, '0'])));
  const change = usePendingChange({
    orderId: order.id,
    build: async () => {
      const items = open.map((i) => ({ id: i.id, quantity: Number(qty[i.id] || 0) })).filter((i) => i.quantity > 0);
      const created = await api<{ return: { id: string } }>('/admin/returns', {
        method: 'POST',
        body: { order_id: order.id },
      });
      const asked = await api<{ order_preview: Preview }>(`/admin/returns/${created.return.id}/request-items`, {
        method: 'POST',
        body: { items },
      });
      return { id: created.return.id, preview: asked.order_preview };
    },
    confirm: (r) => api(`/admin/returns/${r.id}/request`, { method: 'POST', body: {} }),
    discard: (r) => api(`/admin/returns/${r.id}/request`, { method: 'DELETE' }),
    done: { confirmed: 'Return requested', discarded: 'Return discarded' },
  });
  if (!open.length) return null;
  return (
    <Card title="Return items">
      <ChangeForm label="Return items" kind="return" change={change}>
        <LineQuantities
          lines={open}
          name="return"
          label={(i) => `${i.title}: quantity to return (up to ${returnable(i)})`}
          hint={returnHint}
          min={() => 0}
          max={returnable}
          values={qty}
          fallback="0"
          disabled={!!change.pending}
          onChange={setQty}
        />
      </ChangeForm>
      <ChangeFooter kind="return" order={order} change={change} />
    </Card>
  );
}

/** Requested returns of the order, each received in full into stock (sellable) in one go. */
export function ReceivePanel({ order }: { order: Order }) {
  const notify = useToast();
  const refresh = useOrderAction(order.id);
  const returns = useApi<{ returns: ReturnRow[] }>(['order-returns', order.id], '/admin/returns', {
    order_id: order.id,
    limit: 50,
  });
  const receive = useMutation({
    mutationFn: async (r: ReturnRow) => {
      const items = r.items
        .map((i) => ({ id: i.item_id, quantity: i.quantity - i.received_quantity }))
        .filter((i) => i.quantity > 0);
      await api(`/admin/returns/${r.id}/receive`, { method: 'POST', body: {} });
      await api(`/admin/returns/${r.id}/receive-items`, { method: 'POST', body: { items } });
      await api(`/admin/returns/${r.id}/receive/confirm`, { method: 'POST', body: {} });
    },
    onSuccess: () => refresh('Return received and restocked', notify),
  });
  const waiting = (returns.data?.returns ?? []).filter(
    (r) => r.status === 'requested' || r.status === 'partially_received',
  );
  if (!waiting.length) return null;
  return (
    <Card title="Returns to receive">
      {waiting.map((r) => (
        <div key={r.id} className="actions">
          <span>
            {r.items
              .map((i) => `${i.quantity - i.received_quantity} × ${order.items.find((x) => x.id === i.item_id)?.title}`)
              .join(', ')}
          </span>
          <ParcelLabels labels={r.fulfillments.filter((f) => !f.canceled_at).flatMap((f) => f.labels)} returning />
          <button
            type="button"
            className="btn btn-small btn-primary"
            disabled={receive.isPending}
            onClick={() => receive.mutate(r)}
          >
            Receive all (restock)
          </button>
        </div>
      ))}
      <ErrorNote error={receive.error} />
    </Card>
  );
}
