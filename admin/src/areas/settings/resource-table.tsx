import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, ConfirmButton, ErrorNote, Field } from '../../components/ui.tsx';
import { QueryTable, ActionsHead } from '../../components/query-table.tsx';
import { SelectField, SubmitForm } from '../../components/form-pieces.tsx';

export interface FormField {
  name: string;
  label: string;
  type?: string;
  required?: boolean;
  hint?: string;
  options?: { value: string; label: string }[];
}

/**
 * A small admin resource (sales channels, regions, shipping options): its list, a create form
 * generated from `fields`, and delete with confirmation. `toBody` turns the typed strings into the API's body.
 */
export function ResourceTable<T extends { id: string }>({
  title,
  path,
  plural,
  fields,
  toBody,
  columns,
  describe,
}: {
  title: string;
  path: string;
  plural: string;
  fields: FormField[];
  toBody: (values: Record<string, string>) => unknown;
  columns: [string, (row: T) => ReactNode][];
  describe: (row: T) => string;
}) {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const blank = () => Object.fromEntries(fields.map((f) => [f.name, f.options?.[0]?.value ?? '']));
  const [values, setValues] = useState<Record<string, string>>(blank);
  const list = useQuery({
    queryKey: [path],
    queryFn: ({ signal }) => api<Record<string, T[]>>(path, { query: { limit: 200 }, signal }),
  });
  const refresh = () => client.invalidateQueries({ queryKey: [path] });
  const create = useMutation({
    mutationFn: () => api(path, { method: 'POST', body: toBody(values) }),
    onSuccess: async () => {
      setValues(blank());
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`${path}/${id}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  return (
    <>
      {canWrite && (
        <Card title={`New ${title}`}>
          <SubmitForm label={`New ${title}`} className="row" onSubmit={() => create.mutate()}>
            {fields.map((f) =>
              f.options ? (
                <SelectField
                  key={f.name}
                  label={f.label}
                  name={f.name}
                  required={f.required}
                  value={values[f.name]}
                  onChange={(v) => setValues({ ...values, [f.name]: v })}
                  error={create.error}
                  choices={f.options}
                />
              ) : (
                <Field
                  key={f.name}
                  label={f.label}
                  name={f.name}
                  type={f.type ?? 'text'}
                  required={f.required}
                  hint={f.hint}
                  value={values[f.name]}
                  onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                  error={create.error}
                />
              ),
            )}
            <button type="submit" className="btn btn-primary" style={{ marginBottom: 12 }} disabled={create.isPending}>
              Create
            </button>
          </SubmitForm>
          <ErrorNote error={create.error} skipField />
        </Card>
      )}
      <Card>
        <ErrorNote error={remove.error} />
        <QueryTable
          list={list}
          rows={(d) => d[plural] ?? []}
          empty="None yet."
          head={
            <>
              {columns.map(([h]) => (
                <th key={h}>{h}</th>
              ))}
              <ActionsHead />
            </>
          }
          row={(r) => (
            <tr key={r.id}>
              {columns.map(([h, cell]) => (
                <td key={h}>{cell(r)}</td>
              ))}
              <td>
                {canWrite && (
                  <ConfirmButton
                    label="Delete"
                    danger
                    title={`Delete ${describe(r)}?`}
                    body="This cannot be undone."
                    onConfirm={() => remove.mutate(r.id)}
                  />
                )}
              </td>
            </tr>
          )}
        />
      </Card>
    </>
  );
}
