import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { api } from '../../lib/api.ts';
import { dateTime, relative } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, Empty, ErrorNote, Field, Loading, Pager } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { TemplatePreview } from './notification-templates.tsx';
import {
  DELIVERY_STATUSES,
  type NotificationDelivery,
  type ProviderList,
  providerWarning,
} from './notification-types.ts';
import { UrlTextField } from '../../components/form-pieces.tsx';

const LIMIT = 25;

/** Providers that send the shop's messages, with a plain warning when none does. */
function Providers() {
  const providers = useQuery({
    queryKey: ['notification-providers'],
    queryFn: ({ signal }) => api<ProviderList>('/admin/notification-providers', { signal }),
  });
  const warning = providerWarning(providers.data);
  return (
    <Card title="Notification providers">
      {providers.isPending ? (
        <Loading />
      ) : providers.isError ? (
        <ErrorNote error={providers.error} />
      ) : (
        <>
          {warning && (
            <div className="note note-warn" role="alert">
              {warning} <Link to="/marketplace?type=notification-provider">Find a provider</Link>
            </div>
          )}
          {providers.data.notification_providers.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th>Provider</th>
                  <th>Channels</th>
                  <th>Plugin</th>
                </tr>
              </thead>
              <tbody>
                {providers.data.notification_providers.map((p) => (
                  <tr key={p.id}>
                    <td>
                      {p.name} <span className="muted">({p.id})</span>
                    </td>
                    <td>{p.channels.join(', ')}</td>
                    <td>{p.plugin}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </Card>
  );
}

/** Every message the shop sent or tried to send, newest first, filtered by status and template. */
function History() {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  const [params, set] = useUrlFilters();
  const status = params.get('status') ?? '';
  const to = params.get('to') ?? '';
  const offset = Number(params.get('offset') ?? 0);
  const list = useQuery({
    queryKey: ['notification-deliveries', status, to, offset],
    queryFn: ({ signal }) =>
      api<{ notification_deliveries: NotificationDelivery[]; count: number }>('/admin/notification-deliveries', {
        query: { status: status ? [status] : undefined, to, limit: LIMIT, offset },
        signal,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.notification_deliveries.some((d) => d.status === 'pending') ? 2000 : false),
  });
  const retry = useMutation({
    mutationFn: (id: string) => api(`/admin/notification-deliveries/${id}/retry`, { method: 'POST' }),
    onSuccess: async () => {
      notify('Queued to send again', 'success');
      await client.invalidateQueries({ queryKey: ['notification-deliveries'] });
    },
  });
  const rows = list.data?.notification_deliveries ?? [];
  return (
    <Card title="Delivery history">
      <search className="filters">
        <Field label="Status" name="status" as="select" value={status} onChange={(e) => set('status', e.target.value)}>
          <option value="">All</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </Field>
        <UrlTextField label="Recipient" name="to" type="search" />
        <button
          type="button"
          className="btn"
          onClick={() => void client.invalidateQueries({ queryKey: ['notification-deliveries'] })}
        >
          Refresh
        </button>
      </search>
      <ErrorNote error={retry.error} />
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <ErrorNote error={list.error} />
      ) : rows.length === 0 ? (
        <Empty>No messages{status ? ` with status ${status.replace('_', ' ')}` : ''}.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th>Template</th>
                <th>To</th>
                <th>Status</th>
                <th>Provider</th>
                <th className="num">Attempts</th>
                <th>Error / next try</th>
                <th>Created</th>
                {canWrite && (
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td>{d.template}</td>
                  <td>{d.to}</td>
                  <td>
                    <Badge value={d.status}>{d.status.replace('_', ' ')}</Badge>
                  </td>
                  <td>{d.provider_id ?? <span className="muted">none</span>}</td>
                  <td className="num">{d.attempts}</td>
                  <td>
                    {d.error && <div className="field-error">{d.error}</div>}
                    {d.status === 'pending' && d.next_attempt_at && (
                      <span className="muted">next try {relative(d.next_attempt_at)}</span>
                    )}
                  </td>
                  <td>{dateTime(d.created_at)}</td>
                  {canWrite && (
                    <td>
                      {d.status !== 'sent' && (
                        <button
                          type="button"
                          className="btn btn-small"
                          disabled={retry.isPending}
                          onClick={() => retry.mutate(d.id)}
                          aria-label={`Retry ${d.template} to ${d.to}`}
                        >
                          Retry now
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && (
        <Pager
          offset={offset}
          limit={LIMIT}
          count={list.data.count}
          shown={rows.length}
          onChange={(o) => set('offset', String(o))}
        />
      )}
    </Card>
  );
}

/** Settings → Notifications: the shop's messages to shoppers and admins, and why one was not sent. */
export function NotificationsSettingsPage() {
  return (
    <>
      <Providers />
      <TemplatePreview />
      <History />
    </>
  );
}
