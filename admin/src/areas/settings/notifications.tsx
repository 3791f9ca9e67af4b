import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useApi, useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { ActionsHead, PagedTable, QueryView, Table } from '../../components/query-table.tsx';
import { api } from '../../lib/api.ts';
import { dateTime, relative } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, ErrorNote } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { TemplatePreview } from './notification-templates.tsx';
import {
  DELIVERY_STATUSES,
  type NotificationDelivery,
  type ProviderList,
  providerWarning,
} from './notification-types.ts';
import { UrlSelectField, UrlTextField, choicesOf } from '../../components/form-pieces.tsx';

const LIMIT = 25;

/** Providers that send the shop's messages, with a plain warning when none does. */
function Providers() {
  const providers = useApi<ProviderList>(['notification-providers'], '/admin/notification-providers');
  const warning = providerWarning(providers.data);
  return (
    <Card title="Notification providers">
      <QueryView query={providers}>
        {(data) => (
          <>
            {warning && (
              <div className="note note-warn" role="alert">
                {warning} <Link to="/marketplace?type=notification-provider">Find a provider</Link>
              </div>
            )}
            {data.notification_providers.length > 0 && (
              <Table
                records={data.notification_providers}
                head={
                  <>
                    <th>Provider</th>
                    <th>Channels</th>
                    <th>Plugin</th>
                  </>
                }
                row={(p) => (
                  <tr key={p.id}>
                    <td>
                      {p.name} <span className="muted">({p.id})</span>
                    </td>
                    <td>{p.channels.join(', ')}</td>
                    <td>{p.plugin}</td>
                  </tr>
                )}
              />
            )}
          </>
        )}
      </QueryView>
    </Card>
  );
}

/** Every message the shop sent or tried to send, newest first, filtered by status and template. */
function History() {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  const { params, offset, page } = useUrlPage();
  const status = params.get('status') ?? '';
  const to = params.get('to') ?? '';
  const list = useListQuery<{ notification_deliveries: NotificationDelivery[]; count: number }>(
    ['notification-deliveries', status, to, offset],
    '/admin/notification-deliveries',
    { status: status ? [status] : undefined, to, limit: LIMIT, offset },
    {
      refetchInterval: (q) =>
        q.state.data?.notification_deliveries.some((d) => d.status === 'pending') ? 2000 : false,
    },
  );
  const retry = useMutation({
    mutationFn: (id: string) => api(`/admin/notification-deliveries/${id}/retry`, { method: 'POST' }),
    onSuccess: async () => {
      notify('Queued to send again', 'success');
      await client.invalidateQueries({ queryKey: ['notification-deliveries'] });
    },
  });
  return (
    <Card title="Delivery history">
      <search className="filters">
        <UrlSelectField
          label="Status"
          name="status"
          none="All"
          choices={choicesOf(DELIVERY_STATUSES, (s) => s.replace('_', ' '))}
        />
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
      <PagedTable
        list={list}
        rows={(d) => d.notification_deliveries}
        empty={`No messages${status ? ` with status ${status.replace('_', ' ')}` : ''}.`}
        wrap
        head={
          <>
            <th>Template</th>
            <th>To</th>
            <th>Status</th>
            <th>Provider</th>
            <th className="num">Attempts</th>
            <th>Error / next try</th>
            <th>Created</th>
            {canWrite && <ActionsHead />}
          </>
        }
        row={(d) => (
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
        )}
        offset={offset}
        limit={LIMIT}
        onPage={page}
      />
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
