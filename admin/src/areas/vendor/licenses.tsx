import { useState } from 'react';
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { date, dateTime } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, ConfirmButton, ErrorNote, Field, PageHeader, Pager } from '../../components/ui.tsx';
import { ActionsHead, QueryTable } from '../../components/query-table.tsx';
import { useApi } from '../../lib/api-hooks.ts';

interface License {
  id: string;
  key: string;
  marketplace_id: string;
  instance_id: string;
  tier: string;
  status: 'active' | 'expired' | 'revoked';
  purchased_by: string;
  expires_at: string;
  renewed_at: string | null;
  revoked_at: string | null;
}

interface CheckoutSession {
  id: string;
  status: string;
  marketplace_id: string;
  version: string;
  customer_email: string;
  provider: string;
  price_eur: number;
  license_id: string | null;
  expires_at: string;
  paid_at: string | null;
  created_at: string;
}

const LIMIT = 20;

export function Licenses() {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const item = params.get('marketplace_id') ?? '';
  const offset = Number(params.get('offset') ?? 0);
  const [days, setDays] = useState('365');
  const list = useApi<{ licenses: License[]; count: number }>(
    ['licenses', item, offset],
    '/admin/marketplace/licenses',
    { marketplace_id: item || undefined, limit: LIMIT, offset },
    { placeholderData: keepPreviousData },
  );
  const refresh = () => client.invalidateQueries({ queryKey: ['licenses'] });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/admin/marketplace/licenses/${id}/revoke`, { method: 'POST' }),
    onSuccess: refresh,
  });
  const renew = useMutation({
    mutationFn: (id: string) =>
      api(`/admin/marketplace/licenses/${id}/renew`, { method: 'POST', body: { days: Number(days) } }),
    onSuccess: refresh,
  });
  return (
    <>
      <PageHeader title="Licenses" />
      <Card>
        <div className="filters">
          <Field
            label="Item"
            name="marketplace_id"
            placeholder="@vendor/id"
            value={item}
            onChange={(e) => setParams(e.target.value ? { marketplace_id: e.target.value } : {}, { replace: true })}
          />
          {canWrite && (
            <Field
              label="Renew by (days)"
              name="days"
              type="number"
              min={1}
              max={3650}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              error={renew.error}
            />
          )}
        </div>
        <ErrorNote error={revoke.error ?? renew.error} skipField />
        <QueryTable
          list={list}
          rows={(d) => d.licenses}
          empty="No licenses issued yet."
          head={
            <>
              <th>License</th>
              <th>Item</th>
              <th>Buyer</th>
              <th>Status</th>
              <th>Expires</th>
              <ActionsHead />
            </>
          }
          row={(l) => (
            <tr key={l.id}>
              <td>
                <code>{l.key.slice(0, 10)}…</code>
                <div className="muted">instance {l.instance_id.slice(0, 12)}…</div>
              </td>
              <td>
                {l.marketplace_id}
                <div className="muted">{l.tier}</div>
              </td>
              <td>{l.purchased_by}</td>
              <td>
                <Badge value={l.status} />
              </td>
              <td>
                {date(l.expires_at)}
                {l.renewed_at && <div className="muted">renewed {date(l.renewed_at)}</div>}
              </td>
              <td className="actions">
                {canWrite && l.status !== 'revoked' && (
                  <>
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={renew.isPending}
                      onClick={() => renew.mutate(l.id)}
                    >
                      Renew {days} days
                    </button>
                    <ConfirmButton
                      label="Revoke"
                      danger
                      title="Revoke this license?"
                      body="Verification answers “revoked” from now on and the shop disables the plugin at its next check."
                      onConfirm={() => revoke.mutate(l.id)}
                    />
                  </>
                )}
              </td>
            </tr>
          )}
        />
        {list.data && (
          <Pager
            offset={offset}
            limit={LIMIT}
            count={list.data.count}
            shown={list.data.licenses.length}
            onChange={(o) =>
              setParams({ ...(item ? { marketplace_id: item } : {}), offset: String(o) }, { replace: true })
            }
          />
        )}
      </Card>
    </>
  );
}

export function CheckoutSessions() {
  const [params, setParams] = useSearchParams();
  const offset = Number(params.get('offset') ?? 0);
  const list = useApi<{ checkout_sessions: CheckoutSession[]; count: number }>(
    ['checkout-sessions', offset],
    '/admin/marketplace/checkout-sessions',
    { limit: LIMIT, offset },
    { placeholderData: keepPreviousData },
  );
  return (
    <>
      <PageHeader title="Checkout sessions" />
      <Card>
        <QueryTable
          list={list}
          rows={(d) => d.checkout_sessions}
          empty="No purchases yet."
          head={
            <>
              <th>Session</th>
              <th>Item</th>
              <th>Buyer</th>
              <th>Price</th>
              <th>Provider</th>
              <th>Status</th>
              <th>Created</th>
            </>
          }
          row={(s) => (
            <tr key={s.id}>
              <td>
                <code>{s.id.slice(0, 14)}…</code>
              </td>
              <td>
                {s.marketplace_id}@{s.version}
              </td>
              <td>{s.customer_email}</td>
              <td>€{s.price_eur.toFixed(2)}</td>
              <td>{s.provider}</td>
              <td>
                <Badge value={s.status} />
                {s.paid_at && <div className="muted">{dateTime(s.paid_at)}</div>}
              </td>
              <td>{dateTime(s.created_at)}</td>
            </tr>
          )}
        />
        {list.data && (
          <Pager
            offset={offset}
            limit={LIMIT}
            count={list.data.count}
            shown={list.data.checkout_sessions.length}
            onChange={(o) => setParams({ offset: String(o) }, { replace: true })}
          />
        )}
      </Card>
    </>
  );
}
