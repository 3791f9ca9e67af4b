import { useEffect } from 'react';
import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { dateTime } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, ErrorNote, Field, PageHeader } from '../../components/ui.tsx';
import { ActionsHead, PagedTable } from '../../components/query-table.tsx';
import { UNREAD_KEY } from '../../components/shell.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type Notification = Item<Ok<'/admin/notifications'>['notifications']>;

const LIMIT = 30;

/** Unread first; mark one or all read (the bell follows). */
export default function NotificationsPage() {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const read = params.get('read') ?? '';
  const offset = Number(params.get('offset') ?? 0);
  const list = useApi<{ notifications: Notification[]; count: number }>(
    ['notifications', read, offset],
    '/admin/notifications',
    { read: read || undefined, limit: LIMIT, offset },
    { placeholderData: keepPreviousData },
  );
  // Opening the list also brings the bell up to date.
  useEffect(() => {
    if (list.dataUpdatedAt) void client.invalidateQueries({ queryKey: UNREAD_KEY });
  }, [list.dataUpdatedAt, client]);
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: ['notifications'] });
    await client.invalidateQueries({ queryKey: UNREAD_KEY });
    await client.invalidateQueries({ queryKey: ['dashboard'] });
  };
  const markOne = useMutation({
    mutationFn: (id: string) => api(`/admin/notifications/${id}/read`, { method: 'POST' }),
    onSuccess: refresh,
  });
  const markAll = useMutation({
    mutationFn: () => api('/admin/notifications/read-all', { method: 'POST' }),
    onSuccess: refresh,
  });
  return (
    <>
      <PageHeader
        title="Notifications"
        actions={
          canWrite && (
            <button type="button" className="btn" disabled={markAll.isPending} onClick={() => markAll.mutate()}>
              Mark all as read
            </button>
          )
        }
      />
      <Card>
        <div className="filters">
          <Field
            label="Show"
            name="read"
            as="select"
            value={read}
            onChange={(e) => setParams(e.target.value ? { read: e.target.value } : {}, { replace: true })}
          >
            <option value="">All</option>
            <option value="false">Unread</option>
            <option value="true">Read</option>
          </Field>
        </div>
        <ErrorNote error={markOne.error ?? markAll.error} />
        <PagedTable
          list={list}
          rows={(d) => d.notifications}
          empty="Nothing to report."
          head={
            <>
              <th>Notification</th>
              <th>Type</th>
              <th>When</th>
              <ActionsHead />
            </>
          }
          row={(n) => (
            <tr key={n.id} className={n.read_at ? '' : 'unread'}>
              <td>
                {n.title}
                <div className="muted" style={{ fontWeight: 400 }}>
                  {n.message}
                </div>
              </td>
              <td>
                <code>{n.type}</code>
              </td>
              <td>{dateTime(n.created_at)}</td>
              <td>
                {!n.read_at && canWrite && (
                  <button type="button" className="btn btn-small" onClick={() => markOne.mutate(n.id)}>
                    Mark read
                  </button>
                )}
              </td>
            </tr>
          )}
          offset={offset}
          limit={LIMIT}
          onPage={(o) => setParams({ ...(read ? { read } : {}), offset: String(o) }, { replace: true })}
        />
      </Card>
    </>
  );
}
