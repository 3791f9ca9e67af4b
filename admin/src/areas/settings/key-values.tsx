import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { dateTime } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, ConfirmButton, ErrorNote, Field } from '../../components/ui.tsx';
import { SubmitForm } from '../../components/form-pieces.tsx';
import { ActionsHead, QueryTable } from '../../components/query-table.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type Setting = Item<Ok<'/admin/settings'>['settings']>;

/** The key/value settings table: set (create or replace) and delete. */
export function KeyValuesPage() {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const list = useApi<{ settings: Setting[] }>(['settings'], '/admin/settings');
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ['settings'] });
  const save = useMutation({
    mutationFn: () => api('/admin/settings', { method: 'POST', body: { key, value } }),
    onSuccess: async () => {
      setKey('');
      setValue('');
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (k: string) => api(`/admin/settings/${encodeURIComponent(k)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return (
    <>
      {canWrite && (
        <Card title="Set a value">
          <SubmitForm label="Set a value" className="row" onSubmit={() => save.mutate()}>
            <Field
              label="Key"
              name="key"
              required
              pattern="[a-z0-9][a-z0-9_.\-]{0,99}"
              hint="lower-case letters, digits, . _ -"
              value={key}
              onChange={(e) => setKey(e.target.value)}
              error={save.error}
            />
            <Field
              label="Value"
              name="value"
              required
              value={value}
              onChange={(e) => setValue(e.target.value)}
              error={save.error}
            />
            <button type="submit" className="btn btn-primary" style={{ marginBottom: 30 }} disabled={save.isPending}>
              Save
            </button>
          </SubmitForm>
          <ErrorNote error={save.error} skipField />
        </Card>
      )}
      <Card title="Settings">
        <ErrorNote error={remove.error} />
        <QueryTable
          list={list}
          rows={(d) => d.settings}
          empty="No settings stored."
          head={
            <>
              <th>Key</th>
              <th>Value</th>
              <th>Updated</th>
              <ActionsHead />
            </>
          }
          row={(s) => (
            <tr key={s.key}>
              <td>
                <code>{s.key}</code>
              </td>
              <td style={{ wordBreak: 'break-all' }}>{s.value}</td>
              <td>{dateTime(s.updated_at)}</td>
              <td>
                {canWrite && (
                  <>
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => {
                        setKey(s.key);
                        setValue(s.value);
                      }}
                    >
                      Edit
                    </button>{' '}
                    <ConfirmButton
                      label="Delete"
                      danger
                      title={`Delete ${s.key}?`}
                      body="The setting is removed."
                      onConfirm={() => remove.mutate(s.key)}
                    />
                  </>
                )}
              </td>
            </tr>
          )}
        />
      </Card>
    </>
  );
}
