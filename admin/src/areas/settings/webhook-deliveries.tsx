import { Fragment, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useApi, useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { UrlSelectField, choicesOf } from '../../components/form-pieces.tsx';
import { api } from '../../lib/api.ts';
import { dateTime, relative } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, ConfirmButton, ErrorNote } from '../../components/ui.tsx';
import { ActionsHead, PagedTable, QueryView } from '../../components/query-table.tsx';
import { useToast } from '../../components/toasts.tsx';
import type { Webhook } from './webhooks.tsx';
import type { Item, Ok } from '../../api/types.ts';

type Delivery = Item<Ok<'/admin/webhooks/{id}/deliveries'>['deliveries']>;

const LIMIT = 20;

/** Every attempt of one delivery, loaded when its row is opened. */
function Attempts({ webhookId, delivery }: { webhookId: string; delivery: Delivery }) {
  const detail = useApi<Ok<'/admin/webhooks/{id}/deliveries/{delivery_id}'>>(
    ['webhook-delivery', delivery.id, delivery.attempt_count],
    `/admin/webhooks/${webhookId}/deliveries/${delivery.id}`,
  );
  return (
    <QueryView query={detail}>
      {(data) => <AttemptList delivery={delivery} attempts={data.delivery.attempts} />}
    </QueryView>
  );
}

type Attempt = Ok<'/admin/webhooks/{id}/deliveries/{delivery_id}'>['delivery']['attempts'][number];

function AttemptList({ delivery, attempts }: { delivery: Delivery; attempts: Attempt[] }) {
  if (!attempts.length) return <p className="muted">Not attempted yet.</p>;
  return (
    <ol className="timeline" aria-label={`Attempts of ${delivery.id}`}>
      {attempts.map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: attempts have no id and are only ever appended
        <li key={i}>
          <strong>{a.status_code ?? 'no answer'}</strong> · {a.duration_ms ?? '—'} ms · {dateTime(a.attempted_at)}
          {a.error && <div className="field-error">{a.error}</div>}
          {a.response_body && <pre className="excerpt">{a.response_body}</pre>}
        </li>
      ))}
    </ol>
  );
}

/** Delivery history of one endpoint: filter by status, attempts, retry one, replay the dead ones. */
export function WebhookDetail() {
  const { id } = useParams();
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  const { params, offset, page } = useUrlPage();
  const status = params.get('status') ?? '';
  const [open, setOpen] = useState<string | null>(null);
  const webhook = useApi<{ webhook: Webhook }>(['webhook', id], `/admin/webhooks/${id}`);
  const list = useListQuery<{ deliveries: Delivery[]; count: number }>(
    ['webhook-deliveries', id, status, offset],
    `/admin/webhooks/${id}/deliveries`,
    { status: status || undefined, limit: LIMIT, offset },
    { refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === 'pending') ? 2000 : false) },
  );
  const refresh = () => client.invalidateQueries({ queryKey: ['webhook-deliveries', id] });
  const retry = useMutation({
    mutationFn: (d: string) => api(`/admin/webhooks/${id}/deliveries/${d}/retry`, { method: 'POST' }),
    onSuccess: async () => {
      notify('Sent again', 'success');
      await refresh();
    },
  });
  const replay = useMutation({
    mutationFn: () =>
      api<Ok<'/admin/webhooks/{id}/deliveries/replay-dead', 'post'>>(`/admin/webhooks/${id}/deliveries/replay-dead`, {
        method: 'POST',
      }),
    onSuccess: async () => {
      notify('Dead deliveries requeued', 'success');
      await refresh();
    },
  });
  return (
    <>
      <p>
        <Link to="/settings/webhooks">← Webhooks</Link>
      </p>
      <Card
        title={webhook.data ? `Deliveries to ${webhook.data.webhook.url}` : 'Deliveries'}
        actions={
          canWrite && (
            <ConfirmButton
              label="Replay dead deliveries"
              title="Replay every dead delivery?"
              body="Each dead delivery of this endpoint is queued again and sent now."
              onConfirm={() => replay.mutate()}
              disabled={replay.isPending}
            />
          )
        }
      >
        <div className="filters">
          <UrlSelectField
            label="Status"
            name="status"
            none="All"
            choices={choicesOf(['pending', 'retrying', 'succeeded', 'dead'])}
          />
          <button type="button" className="btn" onClick={() => void refresh()}>
            Refresh
          </button>
        </div>
        <ErrorNote error={retry.error ?? replay.error} />
        <PagedTable
          list={list}
          rows={(d) => d.deliveries}
          empty={<>No deliveries{status ? ` with status ${status}` : ''}.</>}
          head={
            <>
              <th>Event</th>
              <th>Status</th>
              <th className="num">Attempts</th>
              <th>Last answer</th>
              <th>Next retry</th>
              <th>Created</th>
              <ActionsHead />
            </>
          }
          row={(d) => (
            <Fragment key={d.id}>
              <tr>
                <td>
                  <button
                    type="button"
                    className="btn-link"
                    aria-expanded={open === d.id}
                    onClick={() => setOpen(open === d.id ? null : d.id)}
                  >
                    {d.event}
                  </button>
                  <div className="muted">{d.id}</div>
                </td>
                <td>
                  <Badge value={d.status} />
                </td>
                <td className="num">{d.attempt_count}</td>
                <td>{d.last_status_code ?? '—'}</td>
                <td>
                  {d.status === 'retrying' && d.next_attempt_at
                    ? `${relative(d.next_attempt_at)} (${dateTime(d.next_attempt_at)})`
                    : '—'}
                </td>
                <td>{dateTime(d.created_at)}</td>
                <td>
                  {canWrite && d.status !== 'succeeded' && (
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={retry.isPending}
                      onClick={() => retry.mutate(d.id)}
                    >
                      Retry now
                    </button>
                  )}
                </td>
              </tr>
              {open === d.id && (
                <tr>
                  <td colSpan={7}>
                    <Attempts webhookId={id!} delivery={d} />
                  </td>
                </tr>
              )}
            </Fragment>
          )}
          offset={offset}
          limit={LIMIT}
          onPage={page}
        />
      </Card>
    </>
  );
}
