import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { date, dateTime } from '../../lib/format.ts';
import { Card, ConfirmButton, Empty, ErrorNote, Loading, PageHeader } from '../../components/ui.tsx';
import { Table, QueryView, QueryTable } from '../../components/query-table.tsx';
import { useToast } from '../../components/toasts.tsx';
import { vendorApi } from './vendor-api.ts';
import type { Item, Ledger, License, Sale, Stats, Subscription, Vendor, Version } from './vendor-types.ts';

const eur = (n: number) => `€${n.toFixed(2)}`;
const BILLING = { one_time: 'once', monthly: 'a month', yearly: 'a year' } as const;
const TONE: Record<string, string> = {
  approved: 'good',
  paid: 'good',
  active: 'good',
  in_review: 'info',
  pending: 'info',
  transferring: 'info',
  past_due: 'warn',
  expired: 'warn',
  rejected: 'bad',
  revoked: 'bad',
  canceled: 'muted',
  none: 'muted',
};
function Status({ value }: { value: string }) {
  return <span className={`badge badge-${TONE[value] ?? 'muted'}`}>{value.replace(/_/g, ' ')}</span>;
}

/** One list of the vendor's own, or an error/empty note. */
function useOwn<T>(key: string, path: string, query: Record<string, number> = { limit: 50 }) {
  return useQuery({
    queryKey: ['vendor-portal', key],
    queryFn: ({ signal }) => vendorApi<T>(path, { query, signal }),
  });
}

export function Portal({ onSignOut }: { onSignOut: () => void }) {
  const me = useOwn<{ vendor: Vendor }>('me', '/admin/marketplace/vendor', {});
  if (me.isPending) return <Loading label="Opening the vendor area" />;
  if (me.isError)
    return (
      <main className="login">
        <div className="card login-card">
          <ErrorNote error={me.error} />
          <button type="button" className="btn" onClick={onSignOut}>
            Sign in again
          </button>
        </div>
      </main>
    );
  const { vendor } = me.data;
  return (
    <main id="main" className="page vendor-portal">
      <PageHeader
        title={`Vendor area · ${vendor.name}`}
        actions={
          <>
            {vendor.namespaces.map((n) => (
              <span key={n} className="badge badge-info">
                {n}
              </span>
            ))}
            <button type="button" className="btn btn-small" onClick={onSignOut}>
              Sign out
            </button>
          </>
        }
      />
      <Payouts vendor={vendor} />
      <Items />
      <Sales />
      <Subscriptions />
      <Licences />
    </main>
  );
}

function Payouts({ vendor }: { vendor: Vendor }) {
  const q = useOwn<{ payouts: Ledger[] }>('payouts', '/admin/marketplace/vendor/payouts', {});
  const l = q.data?.payouts[0];
  return (
    <Card title="Payouts">
      {q.isError ? (
        <ErrorNote error={q.error} />
      ) : !l ? (
        <Empty>No sales yet.</Empty>
      ) : (
        <dl className="figures" aria-label="Payouts ledger">
          {(
            [
              ['Sales', l.sales_eur],
              ['Refunds', l.refunds_eur],
              [`Commission (${vendor.commission_percent} %)`, l.commission_eur],
              ['Your share', l.vendor_share_eur],
              ['Paid out', l.paid_out_eur],
              ['Owed', l.owed_eur],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{eur(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="muted">
        {vendor.payout_account
          ? `Paid by Stripe transfers to ${vendor.payout_account}, one per sale.`
          : 'No payout account yet: the operator connects your Stripe account; your share waits until then.'}
      </p>
    </Card>
  );
}

function VersionLine({ v }: { v: Version }) {
  return (
    <li>
      <strong>{v.version}</strong> <Status value={v.status} />
      {v.status === 'approved' && v.rollout_percent < 100 && (
        <span className="muted"> {v.rollout_halted_at ? 'rollout halted' : `to ${v.rollout_percent} % of shops`}</span>
      )}
      {v.review_reason && v.status !== 'approved' && <div className="muted">Reason: {v.review_reason}</div>}
    </li>
  );
}

function ItemRow({ item }: { item: Item }) {
  // Installs and ratings are public figures of the feed (approved items only).
  const stats = useQuery({
    queryKey: ['vendor-portal', 'stats', item.marketplace_id],
    enabled: item.version !== null,
    queryFn: ({ signal }) =>
      api<{ product: Stats }>(`/store/marketplace/feed/${item.marketplace_id}`, { signal, quiet401: true }),
  });
  const s = stats.data?.product;
  return (
    <tr>
      <td>
        <strong>{item.name}</strong>
        <div className="muted">{item.marketplace_id}</div>
      </td>
      <td>{item.price_eur > 0 ? `${eur(item.price_eur)} ${BILLING[item.billing]}` : 'free'}</td>
      <td>{s ? s.active_installs : '—'}</td>
      <td>{s?.rating_average != null ? `${s.rating_average} ★ (${s.rating_count})` : '—'}</td>
      <td>
        <ul className="plain">
          {item.versions.map((v) => (
            <VersionLine key={v.id} v={v} />
          ))}
        </ul>
      </td>
    </tr>
  );
}

function Items() {
  const q = useOwn<{ items: Item[] }>('items', '/admin/marketplace/items');
  return (
    <Card title="Items">
      <QueryTable
        list={q}
        rows={(d) => d.items}
        empty="Nothing published yet: `npx emporium plugin publish --token mvk_…`."
        label="Items"
        head={
          <>
            <th>Item</th>
            <th>Price</th>
            <th>Active installs</th>
            <th>Rating</th>
            <th>Versions and review</th>
          </>
        }
        row={(i) => <ItemRow key={i.id} item={i} />}
      />
    </Card>
  );
}

function Sales() {
  const q = useOwn<{ sales: Sale[]; count: number }>('sales', '/admin/marketplace/vendor/sales');
  return (
    <Card title="Sales">
      <QueryTable
        list={q}
        rows={(d) => d.sales}
        empty="No sales yet."
        label="Sales"
        head={
          <>
            <th>Date</th>
            <th>Item</th>
            <th>Kind</th>
            <th>Amount</th>
            <th>Commission</th>
            <th>Your share</th>
            <th>Payout</th>
          </>
        }
        row={(s) => (
          <tr key={s.id}>
            <td>{dateTime(s.created_at)}</td>
            <td>{s.marketplace_id}</td>
            <td>{s.kind}</td>
            <td>{eur(s.kind === 'refund' ? -s.amount_eur : s.amount_eur)}</td>
            <td>{eur(s.commission_eur)}</td>
            <td>{eur(s.vendor_share_eur)}</td>
            <td>
              <Status value={s.payout_status} />
            </td>
          </tr>
        )}
      />
    </Card>
  );
}

function Subscriptions() {
  const client = useQueryClient();
  const notify = useToast();
  const q = useOwn<{ subscriptions: Subscription[] }>('subscriptions', '/admin/marketplace/vendor/subscriptions');
  const cancel = useMutation({
    mutationFn: (id: string) =>
      vendorApi(`/admin/marketplace/vendor/subscriptions/${id}/cancel`, { method: 'POST', body: {} }),
    onSuccess: async () => {
      notify('Cancelled: it runs to the end of the paid period', 'success');
      await client.invalidateQueries({ queryKey: ['vendor-portal', 'subscriptions'] });
    },
    onError: (err) => notify((err as Error).message, 'error'),
  });
  if (q.data && q.data.subscriptions.length === 0) return null;
  return (
    <Card title="Subscriptions">
      <QueryView query={q}>
        {(data) => (
          <Table
            records={data.subscriptions}
            label="Subscriptions"
            head={
              <>
                <th>Item</th>
                <th>Billing</th>
                <th>Status</th>
                <th>Period ends</th>
                <th />
              </>
            }
            row={(s) => (
              <tr key={s.id}>
                <td>{s.marketplace_id}</td>
                <td>{s.billing}</td>
                <td>
                  <Status value={s.status} />
                  {s.cancel_at_period_end && s.status !== 'canceled' && <div className="muted">ends then</div>}
                </td>
                <td>{date(s.current_period_end)}</td>
                <td>
                  {!s.cancel_at_period_end && s.status !== 'canceled' && (
                    <ConfirmButton
                      label="Cancel"
                      danger
                      title="Cancel this subscription?"
                      body="No more renewals; the shop keeps the plugin until the paid period ends."
                      onConfirm={() => cancel.mutate(s.id)}
                    />
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </QueryView>
    </Card>
  );
}

function Licences() {
  const q = useOwn<{ licenses: License[] }>('licences', '/admin/marketplace/vendor/licenses');
  return (
    <Card title="Licences">
      <QueryTable
        list={q}
        rows={(d) => d.licenses}
        empty="No licences issued yet."
        label="Licences"
        head={
          <>
            <th>Item</th>
            <th>Buyer</th>
            <th>Status</th>
            <th>Expires</th>
          </>
        }
        row={(l) => (
          <tr key={l.id}>
            <td>{l.marketplace_id}</td>
            <td>{l.purchased_by}</td>
            <td>
              <Status value={l.status} />
            </td>
            <td>{date(l.expires_at)}</td>
          </tr>
        )}
      />
    </Card>
  );
}
