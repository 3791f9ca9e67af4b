import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { api } from '../../lib/api.ts';
import { Card, ErrorNote, Field } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ChangePreview, type Preview } from './change-preview.tsx';
import { money } from '../../lib/format.ts';
import { returnable, useOrderAction } from './order-changes.tsx';
import type { Order, OrderItem } from './types.ts';
import { VariantPicker, type PickedVariant } from './variant-picker.tsx';

/**
 * Exchanges and claims on an order, each put together on the server (`/admin/exchanges`,
 * `/admin/claims`), previewed (the money and the stock it will move), then confirmed or discarded.
 * An exchange that costs more opens a payment request for the difference (see PaymentRequests).
 */

type Kind = 'exchange' | 'claim';
type Built = { id: string; preview: Preview };

const CLAIM_REASONS = [
  ['production_failure', 'Damaged / faulty'],
  ['missing_item', 'Missing'],
  ['wrong_item', 'Wrong item'],
  ['other', 'Other'],
] as const;

/** The swap being put together: `build` opens it and adds its items; confirm or discard it then. */
function useSwap(kind: Kind, order: Order, build: (id: string) => Promise<Preview>, extra: object = {}) {
  const notify = useToast();
  const refresh = useOrderAction(order.id);
  const [pending, setPending] = useState<Built | null>(null);
  const base = `/admin/${kind}s`;
  const start = useMutation({
    mutationFn: async (): Promise<Built> => {
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
    onSuccess: setPending,
  });
  const confirm = useMutation({
    mutationFn: () => api(`${base}/${pending!.id}/request`, { method: 'POST', body: {} }),
    onSuccess: async () => {
      setPending(null);
      await refresh(kind === 'exchange' ? 'Exchange confirmed' : 'Claim confirmed', notify);
    },
  });
  const discard = useMutation({
    mutationFn: () => api(`${base}/${pending!.id}/request`, { method: 'DELETE' }),
    onSuccess: async () => {
      setPending(null);
      await refresh(kind === 'exchange' ? 'Exchange discarded' : 'Claim discarded', notify);
    },
  });
  return { pending, start, confirm, discard, error: start.error ?? confirm.error ?? discard.error };
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
  const options = useQuery({
    queryKey: ['/admin/shipping-options', 'region', regionId],
    enabled: !!regionId,
    queryFn: ({ signal }) =>
      api<{ shipping_options: OptionRow[] }>('/admin/shipping-options', {
        signal,
        query: { region_id: regionId ?? '', limit: 200 },
      }),
  });
  const all = options.data?.shipping_options ?? [];
  const returning = all.filter(isReturnOption);
  // A shop without return options (is_return) sends returns with any of its options.
  return { inbound: returning.length ? returning : all, outbound: all.filter((o) => !isReturnOption(o)) };
}

/** One shipping method of the exchange: an option of the region (its price, or a typed amount) or none. */
function ShippingChoice(props: {
  label: string;
  name: string;
  options: OptionRow[];
  value: string;
  disabled: boolean;
  onChange: (id: string) => void;
  none: string;
}) {
  return (
    <Field
      as="select"
      label={props.label}
      name={props.name}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value)}
    >
      <option value="">{props.none}</option>
      {props.options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.amount === null ? o.name : `${o.name} (${money(o.amount, o.currency_code)})`}
        </option>
      ))}
    </Field>
  );
}

function SwapFooter({ kind, order, swap }: { kind: Kind; order: Order; swap: ReturnType<typeof useSwap> }) {
  const name = kind === 'exchange' ? 'exchange' : 'claim';
  return (
    <>
      <ErrorNote error={swap.error} />
      {swap.pending && (
        <>
          <ChangePreview order={order} preview={swap.pending.preview} kind={kind} />
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={swap.confirm.isPending}
              onClick={() => swap.confirm.mutate()}
            >
              Confirm {name}
            </button>
            <button
              type="button"
              className="btn"
              disabled={swap.discard.isPending}
              onClick={() => swap.discard.mutate()}
            >
              Discard {name}
            </button>
          </div>
        </>
      )}
    </>
  );
}

function SwapForm({ label, onSubmit, children }: { label: string; onSubmit: () => void; children: ReactNode }) {
  return (
    <form
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

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
      <SwapForm label="Exchange items" onSubmit={() => swap.start.mutate()}>
        <div className="row">
          {open.map((i) => (
            <Field
              key={i.id}
              label={`${i.title}: quantity back (up to ${openQty(i)})`}
              name={`exchange.${i.id}`}
              type="number"
              min={0}
              max={openQty(i)}
              value={back[i.id] ?? '0'}
              disabled={!!swap.pending}
              onChange={(e) => setBack({ ...back, [i.id]: e.target.value })}
            />
          ))}
        </div>
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
          <ShippingChoice
            label="Return shipping (items coming back)"
            name="exchange.inbound.shipping"
            options={options.inbound}
            value={inboundOption}
            disabled={!!swap.pending}
            onChange={setInboundOption}
            none="No return shipping"
          />
          <ShippingChoice
            label="Outbound shipping (new items)"
            name="exchange.outbound.shipping"
            options={options.outbound}
            value={outboundOption}
            disabled={!!swap.pending}
            onChange={setOutboundOption}
            none="No shipping charged"
          />
        </div>
        {!swap.pending && (
          <button type="submit" className="btn" disabled={swap.start.isPending || !ready}>
            Preview exchange
          </button>
        )}
      </SwapForm>
      <SwapFooter kind="exchange" order={order} swap={swap} />
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
      <SwapForm label="Claim" onSubmit={() => swap.start.mutate()}>
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
            <Field
              label={`${i.title}: quantity claimed (up to ${i.detail.fulfilled_quantity})`}
              name={`claim.${i.id}`}
              type="number"
              min={0}
              max={i.detail.fulfilled_quantity}
              value={qty[i.id] ?? '0'}
              disabled={!!swap.pending}
              onChange={(e) => setQty({ ...qty, [i.id]: e.target.value })}
            />
            <Field
              as="select"
              label={`${i.title}: reason`}
              name={`claim.${i.id}.reason`}
              value={reason[i.id] ?? 'production_failure'}
              disabled={!!swap.pending}
              onChange={(e) => setReason({ ...reason, [i.id]: e.target.value })}
            >
              {CLAIM_REASONS.map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </Field>
          </div>
        ))}
        {!swap.pending && (
          <button type="submit" className="btn" disabled={swap.start.isPending || !ready}>
            Preview claim
          </button>
        )}
      </SwapForm>
      <SwapFooter kind="claim" order={order} swap={swap} />
    </Card>
  );
}
