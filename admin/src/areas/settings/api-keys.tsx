import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { date } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, ConfirmButton, ErrorNote, Field } from '../../components/ui.tsx';
import { SubmitForm } from '../../components/form-pieces.tsx';
import { ActionsHead, QueryTable } from '../../components/query-table.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';
import { useSavedTicks } from '../../lib/saved-ticks.ts';

type ApiKey = Item<Ok<'/admin/api-keys'>['api_keys']>;

/** Publishable keys (with their sales channels) and secret keys: create, link channels, revoke. */
export function ApiKeysPage() {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const keys = useApi<{ api_keys: ApiKey[] }>(['api-keys'], '/admin/api-keys', { limit: 100 });
  const channels = useApi<Ok<'/admin/sales-channels'>>(['sales-channels', 'all'], '/admin/sales-channels', {
    limit: 100,
  });
  const [title, setTitle] = useState('');
  const [type, setType] = useState<'publishable' | 'secret'>('publishable');
  const [created, setCreated] = useState<ApiKey | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['api-keys'] });
  const create = useMutation({
    mutationFn: () => api<{ api_key: ApiKey }>('/admin/api-keys', { method: 'POST', body: { title, type } }),
    onSuccess: async (d) => {
      setCreated(d.api_key);
      setTitle('');
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`/admin/api-keys/${id}/revoke`, { method: 'POST' }),
    onSuccess: refresh,
  });
  // Each box shows the choice from its click while its save runs, and is disabled meanwhile
  // (lib/saved-ticks.ts: a controlled checkbox sprang back until the list was read again).
  const ticks = useSavedTicks();
  const link = useMutation({
    mutationFn: ({ id, add, remove }: { id: string; add?: string[]; remove?: string[] }) =>
      api(`/admin/api-keys/${id}/sales-channels`, { method: 'POST', body: { add, remove } }),
    onSettled: refresh,
  });
  return (
    <>
      {created && created.type === 'secret' && (
        <div className="note note-info" role="status">
          Secret key (shown once): <code>{created.token}</code>{' '}
          <button type="button" className="btn-link" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      {canWrite && (
        <Card title="New API key">
          <SubmitForm label="New API key" className="row" onSubmit={() => create.mutate()}>
            <Field
              label="Title"
              name="title"
              required
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              error={create.error}
            />
            <Field
              label="Type"
              name="type"
              as="select"
              value={type}
              onChange={(e) => setType(e.target.value as 'publishable' | 'secret')}
            >
              <option value="publishable">Publishable (storefronts)</option>
              <option value="secret">Secret (server integrations)</option>
            </Field>
            <button type="submit" className="btn btn-primary" style={{ marginBottom: 12 }} disabled={create.isPending}>
              Create key
            </button>
          </SubmitForm>
          <ErrorNote error={create.error} skipField />
        </Card>
      )}
      <Card title="API keys">
        <ErrorNote error={revoke.error ?? link.error} />
        <QueryTable
          list={keys}
          rows={(d) => d.api_keys}
          empty="No keys."
          head={
            <>
              <th>Title</th>
              <th>Type</th>
              <th>Key</th>
              <th>Sales channels</th>
              <th>Created</th>
              <ActionsHead />
            </>
          }
          row={(k) => (
            <tr key={k.id}>
              <td>{k.title}</td>
              <td>{k.type}</td>
              <td>
                <code className="token">{k.type === 'publishable' ? k.token : k.redacted}</code>
              </td>
              <td>
                {k.type === 'publishable' ? (
                  canWrite && !k.revoked_at ? (
                    channels.data?.sales_channels.map((c) => {
                      const box = `${k.id}:${c.id}`;
                      return (
                        <Field
                          key={c.id}
                          label={c.name}
                          name={`key-${k.id}-${c.id}`}
                          type="checkbox"
                          checked={ticks.shown(box, !!k.sales_channels?.some((s) => s.id === c.id))}
                          disabled={ticks.pending(box)}
                          aria-busy={ticks.pending(box)}
                          onChange={(e) => {
                            const checked = e.target.checked;
                            ticks.tick(box, checked, () =>
                              link.mutateAsync({ id: k.id, ...(checked ? { add: [c.id] } : { remove: [c.id] }) }),
                            );
                          }}
                        />
                      );
                    })
                  ) : (
                    (k.sales_channels ?? []).map((c) => c.name).join(', ') || '—'
                  )
                ) : (
                  <span className="muted">all (admin)</span>
                )}
              </td>
              <td>{date(k.created_at)}</td>
              <td>
                {k.revoked_at ? (
                  <Badge value="revoked" />
                ) : (
                  canWrite && (
                    <ConfirmButton
                      label="Revoke"
                      danger
                      title={`Revoke “${k.title}”?`}
                      body="Clients using this key stop working at once."
                      onConfirm={() => revoke.mutate(k.id)}
                    />
                  )
                )}
              </td>
            </tr>
          )}
        />
      </Card>
    </>
  );
}
