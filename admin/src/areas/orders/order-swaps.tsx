import { useState } from 'react';
import { api } from '../../lib/api.ts';
import { Card, Field } from '../../components/ui.tsx';
import { VariantPicker, type PickedVariant } from '../../components/variant-picker.tsx';
import { SelectField } from '../../components/form-pieces.tsx';
import type { Preview } from './change-preview.tsx';
import { money } from '../../lib/format.ts';
import { returnable } from './order-changes.tsx';
import { ChangeFooter, ChangeForm, LineQuantities, LineQuantity, usePendingChange } from './change-flow.tsx';
import type { Order, OrderItem } from './types.ts';
import { useApi } from '../../lib/api-hooks.ts';

/**
 * Exchanges and claims on an order, each put together on the server (`/admin/exchanges`,
 * `/admin/claims`), previewed (the money and the stock it will move), then confirmed or discarded.
 * An exchange that costs more opens a payment request for the difference (see PaymentRequests).
 */

type Kind = 'exchange' | 'claim';

const CLAIM_REASONS = [
  { value: 'production_failure', label: 'Damaged / faulty' },
  { value: 'missing_item', label: 'Missing' },
  { value: 'wrong_item', label: 'Wrong item' },
  { value: 'other', label: 'Other' },
];

/** The swap being put together: `build` opens it and adds its items; confirm or discard it then. */
function useSwap(kind: Kind, order: Order, build: (id: string) => Promise<Preview>, extra: object = {}) {
  const base = `/admin/${kind}s`;
  const noun = kind === 'exchange' ? 'Exchange' : 'Claim';
  return usePendingChange({
    orderId: order.id,
    build: async () => {
      const created = await api<Record<Kind, { id: string }>>(base, {
        method: 'POST',
        body: { order_id: order.id, ...extra },
      });
      const id = created[kind].id;
      try {
        return { id, preview: await build(id) };
      } catch (err) {
        // A refused item leaves nothing open on the order: the swap is dropped before the error shows.
        await api(`${base}/${id}/request`, { method: 'DELETE' }).catch(() => undefined);
        throw err;
      }
    },
    confirm: (swap) => api(`${base}/${swap.id}/request`, { method: 'POST', body: {} }),
    discard: (swap) => api(`${base}/${swap.id}/request`, { method: 'DELETE' }),
    done: { confirmed: `${noun} confirmed`, discarded: `${noun} discarded` },
  });
}

/** Fulfilled units not asked back yet (by a return received or still awaited): what can go back in an exchange. */
const openLines = (order: Order) => order.items.filter((i) => returnable(i) > 0);
const openQty = (i: OrderItem) => returnable(i);

interface OptionRow {
  id: string;
  name: string;
  amount: number | null;
  currency_code: string | null;
  rules?: { attribute: string; value: unknown }[];
}
const isReturnOption = (o: OptionRow) =>
  !!o.rules?.some((r) => r.attribute === 'is_return' && String(r.value) === 'true');

/** The region's shipping options: return ones (`is_return`) for items coming back, the others for items going out. */
function useRegionOptions(regionId: string | null | undefined) {
  const options = useApi<{ shipping_options: OptionRow[] }>(
    ['/admin/shipping-options', 'region', regionId],
    '/admin/shipping-options',
    { region_id: regionId ?? '', limit: 200 },
    { enabled: !!regionId },
  );
  const all = options.data?.shipping_options ?? [];
  const returning = all.filter(isReturnOption);
  // A shop without return options (is_return) sends returns with any of its options.
  return { inbound: returning.length ? returning : all, outbound: all.filter((o) => !isReturnOption(o)) };
}

/** The region's options as choices: each with its price, or its name alone (a typed amount). */
const optionChoices = (options: OptionRow[]) =>
  options.map((o) => ({
    value: o.id,
    label: o.amount === null ? o.name : `${o.name} (${money(o.amount, o.currency_code)})`,
  }));

/** Items back, new items out: the difference is owed by the customer (a payment request) or refunded. */
export function ExchangePanel({ order }: { order: Order }) {
  const open = openLines(order);
  const [back, setBack] = useState<Record<string, string>>(() => Object.fromEntries(open.map((i) => [i.id, '0'])));
  const [out, setOut] = useState<PickedVariant | null>(null);
  const [outQty, setOutQty] = useState('1');
  const options = useRegionOptions(order.region_id);
  const [inboundOption, setInboundOption] = useState('');
  const [outboundOption, setOutboundOption] = useState('');
  const swap = useSwap('exchange', order, async (id) => {
    const items = open.map((i) => ({ id: i.id, quantity: Number(back[i.id] || 0) })).filter((i) => i.quantity > 0);
    await api(`/admin/exchanges/${id}/inbound/items`, { method: 'POST', body: { items } });
    let last = await api<{ order_preview: Preview }>(`/admin/exchanges/${id}/outbound/items`, {
      method: 'POST',
      body: { items: out ? [{ variant_id: out.id, quantity: Number(outQty || 1) }] : [] },
    });
    // Shipping both ways is part of the difference: the return label and the new parcel.
    if (inboundOption)
      last = await api<{ order_preview: Preview }>(`/admin/exchanges/${id}/inbound/shipping-method`, {
        method: 'POST',
        body: { shipping_option_id: inboundOption },
      });
    if (outboundOption)
      last = await api<{ order_preview: Preview }>(`/admin/exchanges/${id}/outbound/shipping-method`, {
        method: 'POST',
        body: { shipping_option_id: outboundOption },
      });
    return last.order_preview;
  });
  if (!open.length) return null;
  const ready = !!out && open.some((i) => Number(back[i.id] || 0) > 0);
  return (
    <Card title="Exchange items">
      <ChangeForm label="Exchange items" kind="exchange" change={swap} ready={ready}>
        <LineQuantities
          lines={open}
          name="exchange"
          label={(i) => `${i.title}: quantity back (up to ${openQty(i)})`}
          min={() => 0}
          max={openQty}
          values={back}
          fallback="0"
          disabled={!!swap.pending}
          onChange={setBack}
        />
        <div className="row">
          <VariantPicker label="New item to send" picked={out} onPick={setOut} disabled={!!swap.pending} />
          <Field
            label="Quantity to send"
            name="exchange.out.quantity"
            type="number"
            min={1}
            value={outQty}
            disabled={!!swap.pending}
            onChange={(e) => setOutQty(e.target.value)}
          />
        </div>
        <div className="row">
          <SelectField
            label="Return shipping (items coming back)"
            name="exchange.inbound.shipping"
            choices={optionChoices(options.inbound)}
            none="No return shipping"
            value={inboundOption}
            disabled={!!swap.pending}
            onChange={setInboundOption}
          />
          <SelectField
            label="Outbound shipping (new items)"
            name="exchange.outbound.shipping"
            choices={optionChoices(options.outbound)}
            none="No shipping charged"
            value={outboundOption}
            disabled={!!swap.pending}
            onChange={setOutboundOption}
          />
        </div>
      </ChangeForm>
      <ChangeFooter kind="exchange" order={order} change={swap} />
    </Card>
  );
}

/**
 * Items that arrived damaged, wrong or never: `replace` sends the same items again at no charge,
 * `refund` credits them (the refund is then made from the Refund card).
 */
export function ClaimPanel({ order }: { order: Order }) {
  const open = order.items.filter((i) => i.detail.fulfilled_quantity > 0);
  const [type, setType] = useState<'replace' | 'refund'>('replace');
  const [qty, setQty] = useState<Record<string, string>>(() => Object.fromEntries(open.map((i) => [i.id, '0'])));
  const [reason, setReason] = useState<Record<string, string>>({});
  const swap = useSwap(
    'claim',
    order,
    async (id) => {
      const claimed = open.filter((i) => Number(qty[i.id] || 0) > 0);
      let last = await api<{ order_preview: Preview }>(`/admin/claims/${id}/claim-items`, {
        method: 'POST',
        body: {
          items: claimed.map((i) => ({
            id: i.id,
            quantity: Number(qty[i.id]),
            reason: reason[i.id] ?? 'production_failure',
          })),
        },
      });
      const again = claimed.filter((i) => i.variant_id);
      if (type === 'replace' && again.length)
        last = await api<{ order_preview: Preview }>(`/admin/claims/${id}/outbound/items`, {
          method: 'POST',
          body: { items: again.map((i) => ({ variant_id: i.variant_id, quantity: Number(qty[i.id]) })) },
        });
      return last.order_preview;
    },
    { type },
  );
  if (!open.length) return null;
  const ready = open.some((i) => Number(qty[i.id] || 0) > 0);
  return (
    <Card title="Claim">
      <ChangeForm label="Claim" kind="claim" change={swap} ready={ready}>
        <Field
          as="select"
          label="Claim type"
          name="claim.type"
          value={type}
          disabled={!!swap.pending}
          onChange={(e) => setType(e.target.value as 'replace' | 'refund')}
        >
          <option value="replace">Replace: send the same items again at no charge</option>
          <option value="refund">Refund: credit the items</option>
        </Field>
        {open.map((i) => (
          <div className="row" key={i.id}>
            <LineQuantity
              line={i}
              name="claim"
              label={(l) => `${l.title}: quantity claimed (up to ${l.detail.fulfilled_quantity})`}
              min={() => 0}
              max={(l) => l.detail.fulfilled_quantity}
              values={qty}
              fallback="0"
              disabled={!!swap.pending}
              onChange={setQty}
            />
            <SelectField
              label={`${i.title}: reason`}
              name={`claim.${i.id}.reason`}
              choices={CLAIM_REASONS}
              value={reason[i.id] ?? 'production_failure'}
              disabled={!!swap.pending}
              onChange={(r) => setReason({ ...reason, [i.id]: r })}
            />
          </div>
        ))}
      </ChangeForm>
      <ChangeFooter kind="claim" order={order} change={swap} />
    </Card>
  );
}
