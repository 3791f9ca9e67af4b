import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../lib/api.ts';
import { dateTime, money, toMinor } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { Card, Empty, ErrorNote, Field, PageHeader } from '../../components/ui.tsx';
import { QueryView, Table } from '../../components/query-table.tsx';
import { SubmitForm } from '../../components/form-pieces.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useApi } from '../../lib/api-hooks.ts';

interface Draft {
  id: string;
  display_id?: number;
  email: string;
  total: number;
  currency_code: string;
  created_at: string;
  items: { id: string; title: string; quantity: number; unit_price: number; variant_id: string | null }[];
}

interface Line {
  key: number;
  variant_id: string;
  title: string;
  price: string;
  quantity: string;
}

let nextKey = 0;
const blank = (): Line => ({ key: nextKey++, variant_id: '', title: '', price: '', quantity: '1' });

/** Draft orders: orders the operator builds (variants or custom lines at a custom price), then converts paid. */
export default function DraftOrdersArea() {
  const canWrite = useCan('orders:write');
  const client = useQueryClient();
  const notify = useToast();
  const navigate = useNavigate();
  const drafts = useApi<{ draft_orders: Draft[]; count: number }>(['draft-orders'], '/admin/draft-orders', {
    limit: 50,
  });
  const regions = useApi<{ regions: { id: string; name: string; currency_code: string }[] }>(
    ['regions', 'all'],
    '/admin/regions',
    { limit: 100 },
  );
  const [email, setEmail] = useState('');
  const [regionId, setRegionId] = useState('');
  const [lines, setLines] = useState<Line[]>([blank()]);
  const region = regions.data?.regions.find((r) => r.id === regionId) ?? regions.data?.regions[0];
  const currency = region?.currency_code ?? 'eur';

  const create = useMutation({
    mutationFn: () =>
      api<{ draft_order: Draft }>('/admin/draft-orders', {
        method: 'POST',
        body: {
          email,
          region_id: region?.id,
          items: lines
            .filter((l) => l.variant_id || l.title)
            .map((l) => {
              const price = l.price ? toMinor(l.price, currency) : null;
              return {
                quantity: Number(l.quantity || 1),
                ...(l.variant_id ? { variant_id: l.variant_id.trim() } : { title: l.title }),
                ...(price !== null ? { unit_price: price } : {}),
              };
            }),
        },
      }),
    onSuccess: async () => {
      notify('Draft order created', 'success');
      setLines([blank()]);
      setEmail('');
      await client.invalidateQueries({ queryKey: ['draft-orders'] });
    },
  });
  // Paid: the money came with the order (a manual capture). Unpaid: the customer is asked for the total.
  const convert = useMutation({
    mutationFn: ({ id, paid }: { id: string; paid: boolean }) =>
      api<{ order: { id: string } }>(`/admin/draft-orders/${id}/convert-to-order`, {
        method: 'POST',
        body: { mark_as_paid: paid },
      }),
    onSuccess: async (data, vars) => {
      notify(vars.paid ? 'Draft converted to an order' : 'Draft converted, awaiting payment', 'success');
      await client.invalidateQueries({ queryKey: ['draft-orders'] });
      await client.invalidateQueries({ queryKey: ['orders'] });
      navigate(`/orders/${data.order.id}`);
    },
  });

  const set = (i: number, patch: Partial<Line>) => setLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));

  return (
    <>
      <PageHeader title="Draft orders" />
      <ErrorNote error={convert.error} />
      <QueryView query={drafts}>
        {(data) =>
          data.draft_orders.length === 0 ? (
            <Empty>No draft orders.</Empty>
          ) : (
            <Card title="Drafts">
              <Table
                records={data.draft_orders}
                head={
                  <>
                    <th>Draft</th>
                    <th>Email</th>
                    <th>Items</th>
                    <th className="num">Total</th>
                    <th>Created</th>
                    <th />
                  </>
                }
                row={(d) => (
                  <tr key={d.id}>
                    <td>Draft #{d.display_id}</td>
                    <td>{d.email}</td>
                    <td>{d.items.map((i) => `${i.quantity} × ${i.title}`).join(', ')}</td>
                    <td className="num">{money(d.total, d.currency_code)}</td>
                    <td>{dateTime(d.created_at)}</td>
                    <td>
                      {canWrite && (
                        <div className="actions">
                          <button
                            type="button"
                            className="btn btn-small btn-primary"
                            disabled={convert.isPending || d.items.length === 0}
                            onClick={() => convert.mutate({ id: d.id, paid: true })}
                            aria-label={`Convert draft #${d.display_id} to a paid order`}
                          >
                            Convert to order (paid)
                          </button>
                          <button
                            type="button"
                            className="btn btn-small"
                            disabled={convert.isPending || d.items.length === 0}
                            onClick={() => convert.mutate({ id: d.id, paid: false })}
                            aria-label={`Convert draft #${d.display_id} to an order awaiting payment`}
                          >
                            Convert, awaiting payment
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                )}
              />
              <p className="hint">
                Converting reserves the stock. Paid records the payment as received (a manual capture); awaiting payment
                asks the customer for the total (a payment request on the order, which the desk can mark as paid later).{' '}
                <Link to="/orders?status=draft">Drafts in the order list</Link>
              </p>
            </Card>
          )
        }
      </QueryView>
      {canWrite && (
        <Card title="New draft order">
          <SubmitForm label="New draft order" onSubmit={() => create.mutate()}>
            <div className="row">
              <Field
                label="Customer email"
                name="email"
                type="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                error={create.error}
              />
              <Field
                as="select"
                label="Region"
                name="region_id"
                value={region?.id ?? ''}
                onChange={(e) => setRegionId(e.target.value)}
                error={create.error}
              >
                {(regions.data?.regions ?? []).map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name} ({r.currency_code.toUpperCase()})
                  </option>
                ))}
              </Field>
            </div>
            {lines.map((l, i) => (
              <fieldset key={l.key} className="row">
                <legend>Line {i + 1}</legend>
                <Field
                  label="Variant id (empty: a custom line)"
                  name={`items.${i}.variant_id`}
                  value={l.variant_id}
                  onChange={(e) => set(i, { variant_id: e.target.value })}
                  error={create.error}
                />
                <Field
                  label="Custom title"
                  name={`items.${i}.title`}
                  value={l.title}
                  disabled={!!l.variant_id}
                  onChange={(e) => set(i, { title: e.target.value })}
                  error={create.error}
                />
                <Field
                  label={`Unit price (${currency.toUpperCase()})`}
                  name={`items.${i}.unit_price`}
                  inputMode="decimal"
                  hint="Empty: the variant's price"
                  value={l.price}
                  onChange={(e) => set(i, { price: e.target.value })}
                  error={create.error}
                />
                <Field
                  label="Quantity"
                  name={`items.${i}.quantity`}
                  type="number"
                  min={1}
                  value={l.quantity}
                  onChange={(e) => set(i, { quantity: e.target.value })}
                  error={create.error}
                />
              </fieldset>
            ))}
            <ErrorNote error={create.error} skipField />
            <div className="actions">
              <button type="button" className="btn" onClick={() => setLines([...lines, blank()])}>
                Add line
              </button>
              <button type="submit" className="btn btn-primary" disabled={create.isPending || !region}>
                Create draft
              </button>
            </div>
          </SubmitForm>
        </Card>
      )}
    </>
  );
}
