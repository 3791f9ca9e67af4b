import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../lib/api.ts';
import { date } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, ConfirmButton, ErrorNote, Field } from '../../components/ui.tsx';
import { SubmitForm } from '../../components/form-pieces.tsx';
import { ActionsHead, QueryTable } from '../../components/query-table.tsx';
import { EVENT_GROUPS, eventsFromPicker } from './webhook-events.ts';
import type { Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

export type Webhook = Ok<'/admin/webhooks/{id}'>['webhook'];

function CreateWebhook({ onCreated }: { onCreated: (secret: string) => void }) {
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [picked, setPicked] = useState(new Set<string>(['order.placed']));
  const create = useMutation({
    mutationFn: () =>
      api<Ok<'/admin/webhooks', 'post'>>('/admin/webhooks', {
        method: 'POST',
        body: { url, events: eventsFromPicker(picked) },
      }),
    onSuccess: async (d) => {
      onCreated(d.webhook.signing_secret);
      setUrl('');
      await client.invalidateQueries({ queryKey: ['webhooks'] });
    },
  });
  const toggle = (name: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(name);
    else next.delete(name);
    setPicked(next);
  };
  return (
    <Card title="New webhook">
      <SubmitForm label="New webhook" onSubmit={() => create.mutate()}>
        <Field
          label="Endpoint URL"
          name="url"
          type="url"
          required
          placeholder="https://example.com/hooks/emporium"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={create.error}
        />
        <div className="row">
          {Object.entries(EVENT_GROUPS).map(([g, names]) => (
            <fieldset key={g} style={{ flex: '1 1 150px' }}>
              <legend>{g}</legend>
              {names.map((n) => (
                <Field
                  key={n}
                  label={n.replace('_', ' ')}
                  name={`event-${g}.${n}`}
                  type="checkbox"
                  checked={picked.has(`${g}.${n}`)}
                  onChange={(e) => toggle(`${g}.${n}`, e.target.checked)}
                />
              ))}
            </fieldset>
          ))}
        </div>
        <ErrorNote error={create.error} skipField />
        <button type="submit" className="btn btn-primary" disabled={create.isPending || picked.size === 0}>
          Create webhook
        </button>
      </SubmitForm>
    </Card>
  );
}

export function WebhooksPage() {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const list = useApi<{ webhooks: Webhook[] }>(['webhooks'], '/admin/webhooks', { limit: 100 });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/admin/webhooks/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  return (
    <>
      {secret && (
        <div className="note note-info" role="status">
          Signing secret (shown once, keep it with your receiver): <code>{secret}</code>{' '}
          <button type="button" className="btn-link" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      )}
      {canWrite && <CreateWebhook onCreated={setSecret} />}
      <Card title="Webhooks">
        <QueryTable
          list={list}
          rows={(d) => d.webhooks}
          empty="No webhooks yet."
          head={
            <>
              <th>Endpoint</th>
              <th>Events</th>
              <th>State</th>
              <th>Created</th>
              <ActionsHead />
            </>
          }
          row={(w) => (
            <tr key={w.id}>
              <td>
                <Link to={`/settings/webhooks/${w.id}`}>{w.url}</Link>
              </td>
              <td>{w.events.join(', ')}</td>
              <td>{w.active ? <Badge value="active" /> : <Badge value="disabled">inactive</Badge>}</td>
              <td>{date(w.created_at)}</td>
              <td className="actions">
                <Link className="btn btn-small" to={`/settings/webhooks/${w.id}`}>
                  Deliveries
                </Link>
                {canWrite && (
                  <ConfirmButton
                    label="Delete"
                    danger
                    title="Delete this webhook?"
                    body={`Deliveries still queued for ${w.url} are given up.`}
                    onConfirm={() => remove.mutate(w.id)}
                  />
                )}
              </td>
            </tr>
          )}
        />
        <ErrorNote error={remove.error} />
      </Card>
    </>
  );
}
