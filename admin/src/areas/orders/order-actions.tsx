import { useState, type FormEvent } from 'react';
import { fromMinor, toMinor } from '../../lib/format.ts';
import { Card, Field } from '../../components/ui.tsx';
import { SubmitButton, namedChoices, SelectField } from '../../components/form-pieces.tsx';
import type { Order } from './types.ts';

export interface FulfilBody {
  items: { item_id: string; quantity: number }[];
  location_id?: string;
  shipping_option_id?: string;
}

/**
 * Pick the lines and quantities to fulfil (defaults: everything still unfulfilled), the location
 * the goods leave from (by default the one holding the order's reservations) and, when the order
 * has several shipping methods, whose provider ships them (its label and tracking land on the
 * fulfilment).
 */
export function FulfilForm({
  order,
  locations,
  pending,
  error,
  onSubmit,
}: {
  order: Order;
  locations: { id: string; name: string }[];
  pending: boolean;
  error: unknown;
  onSubmit: (body: FulfilBody) => void;
}) {
  const open = order.items.filter((i) => i.detail.quantity > i.detail.fulfilled_quantity);
  const methods = order.shipping_methods.filter((m) => m.shipping_option_id);
  const [qty, setQty] = useState<Record<string, string>>(() =>
    Object.fromEntries(open.map((i) => [i.id, String(i.detail.quantity - i.detail.fulfilled_quantity)])),
  );
  const [location, setLocation] = useState('');
  const [method, setMethod] = useState(methods[0]?.shipping_option_id ?? '');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const items = open.map((i) => ({ item_id: i.id, quantity: Number(qty[i.id] || 0) })).filter((i) => i.quantity > 0);
    if (!items.length) return;
    onSubmit({
      items,
      ...(location ? { location_id: location } : {}),
      ...(method ? { shipping_option_id: method } : {}),
    });
  };
  return (
    <Card title="Fulfil items">
      <form onSubmit={submit} aria-label="Fulfil items">
        <div className="row">
          {open.map((i) => (
            <Field
              key={i.id}
              label={`${i.title}${i.variant_title ? ` (${i.variant_title})` : ''}, up to ${i.detail.quantity - i.detail.fulfilled_quantity}`}
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
        <div className="row">
          <SelectField
            label="Ship from"
            name="location_id"
            value={location}
            onChange={setLocation}
            error={error}
            hint="another location must keep the items and have them free"
            none="Where the order's stock is reserved"
            choices={namedChoices(locations)}
          />
          {methods.length > 1 && (
            <Field
              as="select"
              label="Shipping method"
              name="shipping_option_id"
              value={method}
              onChange={(e) => setMethod(e.target.value)}
              error={error}
            >
              {methods.map((m) => (
                <option key={m.id} value={m.shipping_option_id ?? ''}>
                  {m.name}
                </option>
              ))}
            </Field>
          )}
        </div>
        <SubmitButton pending={pending}>Fulfil selected items</SubmitButton>
      </form>
    </Card>
  );
}

/** Tracking typed by the desk when it marks a fulfilment shipped (a manual provider's label). */
export function ShipForm({
  pending,
  onSubmit,
}: {
  pending: boolean;
  onSubmit: (labels: { tracking_number: string; tracking_url: string; label_url: string }[]) => void;
}) {
  const [number, setNumber] = useState('');
  const [url, setUrl] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(number.trim() ? [{ tracking_number: number.trim(), tracking_url: url.trim(), label_url: '' }] : []);
  };
  return (
    <form onSubmit={submit} aria-label="Mark as shipped" className="row">
      <Field
        label="Tracking number"
        name="tracking_number"
        maxLength={500}
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        hint="optional"
      />
      <Field
        label="Tracking URL"
        name="tracking_url"
        type="url"
        maxLength={2000}
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        hint="optional"
      />
      <button type="submit" className="btn btn-small btn-primary" disabled={pending} style={{ marginBottom: 12 }}>
        Mark as shipped
      </button>
    </form>
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
