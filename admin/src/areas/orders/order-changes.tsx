import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../../lib/api.ts';
import { Card, ErrorNote, Field } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ChangePreview, type Preview } from './change-preview.tsx';
import type { Order, OrderItem } from './types.ts';

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
    labels: { id: string; tracking_number: string; tracking_url: string; label_url: string }[];
  }[];
}

/** A return parcel's tracking (linked when the carrier gave a page) and its label. */
function ReturnLabels({ r }: { r: ReturnRow }) {
  const labels = r.fulfillments.filter((f) => !f.canceled_at).flatMap((f) => f.labels);
  if (!labels.length) return null;
  return (
    <ul className="labels" aria-label="Return labels and tracking">
      {labels.map((l) => (
        <li key={l.id}>
          Return tracking{' '}
          {l.tracking_url ? (
            <a href={l.tracking_url} target="_blank" rel="noreferrer">
              {l.tracking_number || l.tracking_url}
            </a>
          ) : (
            l.tracking_number
          )}
          {l.label_url && (
            <>
              {' · '}
              <a href={l.label_url} target="_blank" rel="noreferrer">
                Return label
              </a>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export function useOrderAction(orderId: string) {
  const client = useQueryClient();
  return async (message: string, notify: (m: string, k: 'success') => void) => {
    notify(message, 'success');
    await client.invalidateQueries({ queryKey: ['order', orderId] });
    await client.invalidateQueries({ queryKey: ['order-changes', orderId] });
    await client.invalidateQueries({ queryKey: ['order-returns', orderId] });
  };
}

/** Change quantities of the order's lines (not below what was fulfilled): preview, then confirm or discard. */
export function EditPanel({ order }: { order: Order }) {
  const notify = useToast();
  const refresh = useOrderAction(order.id);
  const [qty, setQty] = useState<Record<string, string>>(() =>
    Object.fromEntries(order.items.map((i) => [i.id, String(i.quantity)])),
  );
  const [preview, setPreview] = useState<Preview | null>(null);
  const start = useMutation({
    mutationFn: async () => {
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
      return last;
    },
    onSuccess: (p) => setPreview(p),
  });
  const confirm = useMutation({
    mutationFn: async () => {
      await api(`/admin/order-edits/${order.id}/request`, { method: 'POST', body: {} });
      await api(`/admin/order-edits/${order.id}/confirm`, { method: 'POST', body: {} });
    },
    onSuccess: async () => {
      setPreview(null);
      await refresh('Order edit confirmed', notify);
    },
  });
  const discard = useMutation({
    mutationFn: () => api(`/admin/order-edits/${order.id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setPreview(null);
      await refresh('Order edit discarded', notify);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };
  return (
    <Card title="Edit order">
      <form onSubmit={submit} aria-label="Edit order">
        <div className="row">
          {order.items.map((i) => (
            <Field
              key={i.id}
              label={`${i.title}: quantity (at least ${i.detail.fulfilled_quantity})`}
              name={`edit.${i.id}`}
              type="number"
              min={i.detail.fulfilled_quantity}
              value={qty[i.id] ?? ''}
              disabled={!!preview}
              onChange={(e) => setQty({ ...qty, [i.id]: e.target.value })}
            />
          ))}
        </div>
        {!preview && (
          <button type="submit" className="btn" disabled={start.isPending}>
            Preview edit
          </button>
        )}
      </form>
      <ErrorNote error={start.error ?? confirm.error ?? discard.error} />
      {preview && (
        <>
          <ChangePreview order={order} preview={preview} kind="edit" />
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={confirm.isPending}
              onClick={() => confirm.mutate()}
            >
              Confirm edit
            </button>
            <button type="button" className="btn" disabled={discard.isPending} onClick={() => discard.mutate()}>
              Discard edit
            </button>
          </div>
        </>
      )}
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
  const notify = useToast();
  const refresh = useOrderAction(order.id);
  const open = order.items.filter((i) => returnable(i) > 0);
  const [qty, setQty] = useState<Record<string, string>>(() => Object.fromEntries(open.map((i) => [i.id, '0'])));
  const [pending, setPending] = useState<{ id: string; preview: Preview } | null>(null);
  const start = useMutation({
    mutationFn: async () => {
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
    onSuccess: setPending,
  });
  const confirm = useMutation({
    mutationFn: () => api(`/admin/returns/${pending!.id}/request`, { method: 'POST', body: {} }),
    onSuccess: async () => {
      setPending(null);
      await refresh('Return requested', notify);
    },
  });
  const drop = useMutation({
    mutationFn: () => api(`/admin/returns/${pending!.id}/request`, { method: 'DELETE' }),
    onSuccess: async () => {
      setPending(null);
      await refresh('Return discarded', notify);
    },
  });
  if (!open.length) return null;
  return (
    <Card title="Return items">
      <form
        aria-label="Return items"
        onSubmit={(e) => {
          e.preventDefault();
          start.mutate();
        }}
      >
        <div className="row">
          {open.map((i) => (
            <Field
              key={i.id}
              label={`${i.title}: quantity to return (up to ${returnable(i)})`}
              hint={returnHint(i)}
              name={`return.${i.id}`}
              type="number"
              min={0}
              max={returnable(i)}
              value={qty[i.id] ?? '0'}
              disabled={!!pending}
              onChange={(e) => setQty({ ...qty, [i.id]: e.target.value })}
            />
          ))}
        </div>
        {!pending && (
          <button type="submit" className="btn" disabled={start.isPending}>
            Preview return
          </button>
        )}
      </form>
      <ErrorNote error={start.error ?? confirm.error ?? drop.error} />
      {pending && (
        <>
          <ChangePreview order={order} preview={pending.preview} kind="return" />
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={confirm.isPending}
              onClick={() => confirm.mutate()}
            >
              Confirm return
            </button>
            <button type="button" className="btn" disabled={drop.isPending} onClick={() => drop.mutate()}>
              Discard return
            </button>
          </div>
        </>
      )}
    </Card>
  );
}

/** Requested returns of the order, each received in full into stock (sellable) in one go. */
export function ReceivePanel({ order }: { order: Order }) {
  const notify = useToast();
  const refresh = useOrderAction(order.id);
  const returns = useQuery({
    queryKey: ['order-returns', order.id],
    queryFn: ({ signal }) =>
      api<{ returns: ReturnRow[] }>('/admin/returns', { signal, query: { order_id: order.id, limit: 50 } }),
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
          <ReturnLabels r={r} />
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
