import { useState, type FormEvent } from 'react';
import { fromMinor, toMinor } from '../../lib/format.ts';
import { Card, Field } from '../../components/ui.tsx';
import type { Order } from './types.ts';

/** Pick the lines and quantities to fulfil (defaults: everything still unfulfilled). */
export function FulfilForm({
  order,
  pending,
  error,
  onSubmit,
}: {
  order: Order;
  pending: boolean;
  error: unknown;
  onSubmit: (items: { item_id: string; quantity: number }[]) => void;
}) {
  const open = order.items.filter((i) => i.detail.quantity > i.detail.fulfilled_quantity);
  const [qty, setQty] = useState<Record<string, string>>(() =>
    Object.fromEntries(open.map((i) => [i.id, String(i.detail.quantity - i.detail.fulfilled_quantity)])),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const items = open.map((i) => ({ item_id: i.id, quantity: Number(qty[i.id] || 0) })).filter((i) => i.quantity > 0);
    if (items.length) onSubmit(items);
  };
  return (
    <Card title="Fulfil items">
      <form onSubmit={submit} aria-label="Fulfil items">
        <div className="row">
          {open.map((i) => (
            <Field
              key={i.id}
              label={`${i.title} (${i.variant_title}), up to ${i.detail.quantity - i.detail.fulfilled_quantity}`}
              name={`items.${i.id}.quantity`}
              type="number"
              min={0}
              max={i.detail.quantity - i.detail.fulfilled_quantity}
              value={qty[i.id] ?? '0'}
              onChange={(e) => setQty({ ...qty, [i.id]: e.target.value })}
              error={error}
            />
          ))}
        </div>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          Fulfil selected items
        </button>
      </form>
    </Card>
  );
}

/** A refund of part or all of what was captured and not refunded yet, with a reason and a note. */
export function RefundForm({
  currency,
  max,
  pending,
  error,
  onSubmit,
}: {
  currency: string;
  max: number;
  pending: boolean;
  error: unknown;
  onSubmit: (body: { amount: number; reason?: string; note?: string }) => void;
}) {
  const [amount, setAmount] = useState(fromMinor(max, currency));
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const minor = toMinor(amount, currency);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (minor === null) return;
    onSubmit({ amount: minor, ...(reason ? { reason } : {}), ...(note ? { note } : {}) });
  };
  return (
    <Card title="Refund">
      <form onSubmit={submit} aria-label="Refund">
        <div className="row">
          <Field
            label={`Amount (${currency.toUpperCase()}), up to ${fromMinor(max, currency)}`}
            name="amount"
            inputMode="decimal"
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={error}
            aria-invalid={minor === null ? true : undefined}
          />
          <Field
            label="Reason"
            name="reason"
            maxLength={255}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={error}
          />
          <Field
            label="Note"
            name="note"
            maxLength={255}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            error={error}
          />
        </div>
        {minor === null && <p className="field-error">Enter an amount such as 12.50</p>}
        <button type="submit" className="btn btn-primary" disabled={pending || minor === null}>
          Refund
        </button>
      </form>
    </Card>
  );
}
