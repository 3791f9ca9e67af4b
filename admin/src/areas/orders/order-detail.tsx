import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { dateTime, money } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { Badge, Card, ConfirmButton, ErrorNote, Loading, PageHeader } from '../../components/ui.tsx';
import { BackLink } from '../../components/page-links.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ExtensionSlot } from '../../extensions/slot.tsx';
import { Activity } from '../../components/activity.tsx';
import { FulfilForm, RefundForm, ShipForm } from './order-actions.tsx';
import { EditPanel, ReceivePanel, ReturnPanel } from './order-changes.tsx';
import { ClaimPanel, ExchangePanel } from './order-swaps.tsx';
import { ParcelLabels } from './parcel-labels.tsx';
import { PaymentRequests } from './payment-requests.tsx';
import { changeEvents, timeline, type Order, type OrderChange } from './types.ts';
import { useApi } from '../../lib/api-hooks.ts';

/** One order: lines, totals, payments, fulfilments and their history, with the desk's actions. */
export function OrderDetail() {
  const { id } = useParams();
  // Each control shows only to a role the API would let through (a support role refunds, a fulfilment role ships).
  const canWrite = useCan('orders:write');
  const canRefund = useCan('orders:refund');
  const client = useQueryClient();
  const notify = useToast();
  const order = useApi<{ order: Order }>(['order', id], `/admin/orders/${id}`);
  // The order's changes (edits, returns, transfers) with who made them, for the timeline.
  const changes = useApi<{ order_changes: OrderChange[] }>(['order-changes', id], `/admin/orders/${id}/changes`);
  const users = useApi<{ users: { id: string; email: string }[] }>(
    ['users', 'names'],
    '/admin/users',
    { limit: 200 },
    { retry: false },
  );
  // Where a fulfilment can ship from, and the names its fulfilments show (a role without inventory sees ids).
  const locations = useApi<{ stock_locations: { id: string; name: string }[] }>(
    ['/admin/stock-locations', 'names'],
    '/admin/stock-locations',
    { limit: 200 },
    { retry: false },
  );
  // Every action answers the whole order: it replaces the cached one, no second read.
  const act = useMutation({
    mutationFn: ({ path, body }: { path: string; body?: unknown; done: string }) =>
      api<{ order: Order }>(`/admin/orders/${id}${path}`, { method: 'POST', body: body ?? {} }),
    onSuccess: async (data, vars) => {
      client.setQueryData(['order', id], data);
      notify(vars.done, 'success');
      await client.invalidateQueries({ queryKey: ['orders'] });
      await client.invalidateQueries({ queryKey: ['dashboard'] });
      await client.invalidateQueries({ queryKey: ['audit-log', id] });
    },
  });

  if (order.isPending) return <Loading />;
  if (order.isError) return <ErrorNote error={order.error} />;
  const o = order.data.order;
  const c = (n: number) => money(n, o.currency_code);
  const open = o.status !== 'canceled';
  const capturable = open && o.summary.authorized_total > o.summary.captured_total;
  const refundable = o.summary.captured_total - o.summary.refunded_total;
  const unfulfilled = o.items.some((i) => i.detail.quantity > i.detail.fulfilled_quantity);
  const live = o.fulfillments.filter((f) => !f.canceled_at);
  const run = (path: string, done: string, body?: unknown) => act.mutate({ path, body, done });
  const allLocations = locations.data?.stock_locations ?? [];
  const locationName = (lid: string) => allLocations.find((l) => l.id === lid)?.name ?? lid;
  const methodName = (optionId: string | null) =>
    o.shipping_methods.find((m) => m.shipping_option_id === optionId)?.name ?? null;

  return (
    <>
      <PageHeader
        back={<BackLink to="/orders">Orders</BackLink>}
        title={
          <>
            Order #{o.display_id} <Badge value={o.status} /> <Badge value={o.payment_status} />{' '}
            <Badge value={o.fulfillment_status} />
          </>
        }
        actions={
          open && (
            <>
              {canWrite && capturable && (
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={act.isPending}
                  onClick={() => run('/capture', 'Payment captured')}
                >
                  Capture {c(o.summary.authorized_total - o.summary.captured_total)}
                </button>
              )}
              {canRefund && (
                <ConfirmButton
                  label="Cancel order"
                  danger
                  title={`Cancel order #${o.display_id}?`}
                  body="Stock goes back, captured money is refunded and the rest of the authorization is released. This cannot be undone."
                  confirmLabel="Cancel order"
                  disabled={act.isPending}
                  onConfirm={() => run('/cancel', 'Order canceled')}
                />
              )}
            </>
          )
        }
      />
      <ErrorNote error={act.error} />
      <div className="cols">
        <div>
          <Card title="Items">
            <table>
              <thead>
                <tr>
                  <th>Item</th>
                  <th className="num">Price</th>
                  <th className="num">Qty</th>
                  <th className="num">Fulfilled</th>
                  <th className="num">Shipped</th>
                  <th className="num">Total</th>
                </tr>
              </thead>
              <tbody>
                {o.items.map((i) => (
                  <tr key={i.id}>
                    <td>
                      {i.title}
                      <div className="muted">
                        {i.variant_title}
                        {i.variant_sku ? ` · ${i.variant_sku}` : ''}
                      </div>
                      {i.adjustments.map((a) => (
                        <div key={a.id} className="muted">
                          Discount {a.code}: −{c(a.amount)}
                        </div>
                      ))}
                      {i.tax_lines.map((l) => (
                        <div key={l.id} className="muted">
                          {l.name} {l.rate} %: {c(l.total)}
                        </div>
                      ))}
                    </td>
                    <td className="num">{c(i.unit_price)}</td>
                    <td className="num">{i.quantity}</td>
                    <td className="num">{i.detail.fulfilled_quantity}</td>
                    <td className="num">{i.detail.shipped_quantity}</td>
                    <td className="num">{c(i.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <dl className="kv" style={{ marginTop: 12 }}>
              <dt>Subtotal (without tax)</dt>
              <dd>{c(o.subtotal)}</dd>
              <dt>Discounts</dt>
              <dd>−{c(o.discount_subtotal)}</dd>
              <dt>Tax</dt>
              <dd>{c(o.tax_total)}</dd>
              <dt>Items</dt>
              <dd>{c(o.item_total)}</dd>
              <dt>Shipping</dt>
              <dd>
                {c(o.shipping_total)}
                {o.shipping_methods.flatMap((m) =>
                  m.adjustments.map((a) => (
                    <div key={a.id} className="muted">
                      Discount {a.code}: −{c(a.amount)}
                    </div>
                  )),
                )}
              </dd>
              <dt>
                <strong>Total</strong>
              </dt>
              <dd>
                <strong>{c(o.total)}</strong>
              </dd>
              <dt>Authorized</dt>
              <dd>{c(o.summary.authorized_total)}</dd>
              <dt>Captured</dt>
              <dd>{c(o.summary.captured_total)}</dd>
              <dt>Refunded</dt>
              <dd>{c(o.summary.refunded_total)}</dd>
            </dl>
          </Card>
          {canWrite && open && unfulfilled && (
            <FulfilForm
              order={o}
              locations={allLocations}
              pending={act.isPending}
              error={act.error}
              onSubmit={(body) => run('/fulfillments', 'Items fulfilled', body)}
            />
          )}
          <Card title="Fulfillments">
            {o.fulfillments.length === 0 ? (
              <p className="muted">Nothing fulfilled yet.</p>
            ) : (
              o.fulfillments.map((f) => (
                <div key={f.id} className="card" style={{ marginBottom: 8 }}>
                  <div className="card-head">
                    <span>{f.items.map((i) => `${i.quantity} × ${i.title}`).join(', ')}</span>
                    <span>
                      {f.canceled_at ? (
                        <Badge value="canceled" />
                      ) : f.delivered_at ? (
                        <Badge value="delivered" />
                      ) : f.shipped_at ? (
                        <Badge value="shipped" />
                      ) : (
                        <Badge value="fulfilled" />
                      )}
                    </span>
                  </div>
                  <p className="muted" style={{ margin: 0 }}>
                    {[
                      f.location_id ? `From ${locationName(f.location_id)}` : null,
                      methodName(f.shipping_option_id),
                      f.provider_id ? `provider ${f.provider_id}` : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  <ParcelLabels labels={f.labels} />
                  {canWrite && !f.canceled_at && (
                    <div className="actions">
                      {!f.shipped_at && (
                        <ShipForm
                          pending={act.isPending}
                          onSubmit={(labels) =>
                            run(`/fulfillments/${f.id}/shipments`, 'Marked as shipped', labels.length ? { labels } : {})
                          }
                        />
                      )}
                      {f.shipped_at && !f.delivered_at && (
                        <button
                          type="button"
                          className="btn btn-small"
                          disabled={act.isPending}
                          onClick={() => run(`/fulfillments/${f.id}/mark-as-delivered`, 'Marked as delivered')}
                        >
                          Mark as delivered
                        </button>
                      )}
                      {!f.shipped_at && (
                        <button
                          type="button"
                          className="btn btn-small btn-danger"
                          disabled={act.isPending}
                          onClick={() => run(`/fulfillments/${f.id}/cancel`, 'Fulfillment canceled')}
                        >
                          Cancel fulfillment
                        </button>
                      )}
                    </div>
                  )}
                </div>
              ))
            )}
            {live.length > 0 && (
              <p className="hint">
                {live.length} active fulfillment{live.length === 1 ? '' : 's'}.
              </p>
            )}
          </Card>
          {canRefund && refundable > 0 && (
            <RefundForm
              currency={o.currency_code}
              max={refundable}
              pending={act.isPending}
              error={act.error}
              onSubmit={(body) => run('/refunds', 'Refund recorded', body)}
            />
          )}
          {canWrite && open && o.status === 'pending' && (
            <>
              <EditPanel key={`edit-${o.version}`} order={o} />
              <ReturnPanel key={`return-${o.version}`} order={o} />
              <ExchangePanel key={`exchange-${o.version}`} order={o} />
              <ClaimPanel key={`claim-${o.version}`} order={o} />
              <ReceivePanel order={o} />
            </>
          )}
          <ExtensionSlot name="order.details" />
        </div>
        <div>
          <Card title="Customer">
            <p style={{ margin: 0 }}>{o.email}</p>
            {o.customer_id && <Link to={`/customers/${o.customer_id}`}>Customer profile</Link>}
            {o.shipping_address && (
              <p className="muted">
                {[
                  o.shipping_address.first_name,
                  o.shipping_address.last_name,
                  o.shipping_address.address_1,
                  o.shipping_address.city,
                  o.shipping_address.country_code?.toUpperCase(),
                ]
                  .filter(Boolean)
                  .join(', ')}
              </p>
            )}
          </Card>
          {open && <PaymentRequests order={o} canWrite={canWrite} />}
          <Card title="Payments">
            {o.payment_collections
              .flatMap((pc) => pc.payments)
              .map((p) => (
                <dl className="kv" key={p.id}>
                  <dt>Provider</dt>
                  <dd>{p.provider_id}</dd>
                  <dt>Status</dt>
                  <dd>
                    <Badge value={p.status} />
                  </dd>
                  <dt>Amount</dt>
                  <dd>{c(p.amount)}</dd>
                </dl>
              ))}
          </Card>
          <Card title="Timeline">
            <ol className="timeline">
              {[...timeline(o), ...changeEvents(changes.data?.order_changes ?? [], users.data?.users ?? [])]
                .sort((a, b) => a.at.localeCompare(b.at))
                .map((e, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: derived from the order on each render, with no id of its own
                  <li key={i}>
                    <div>
                      {e.text}
                      {e.amount !== undefined && <strong> {c(e.amount)}</strong>}
                    </div>
                    <small className="muted">{dateTime(e.at)}</small>
                  </li>
                ))}
            </ol>
          </Card>
          <Activity resourceId={o.id} />
        </div>
      </div>
    </>
  );
}
