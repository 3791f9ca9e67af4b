import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { grants, useCan } from '../../lib/session.tsx';
import { Card, ConfirmButton, ErrorNote, Field, Loading } from '../../components/ui.tsx';
import { SubmitButton, SubmitForm } from '../../components/form-pieces.tsx';
import { type Role, useRoles } from './team-api.ts';
import { useApi } from '../../lib/api-hooks.ts';

interface PermissionEntry {
  id: string;
  resource: string;
  action: string;
}

/** Resources as rows, actions as columns: the catalog the API's routes declare. */
function gridOf(catalog: PermissionEntry[]) {
  const resources = [...new Set(catalog.map((p) => p.resource))].sort();
  const actions = [...new Set(catalog.map((p) => p.action))].sort();
  const exists = new Set(catalog.map((p) => p.id));
  return { resources, actions, exists };
}

/** Built-in roles (read-only) and custom roles: a grid of resource × action to tick. */
export function RolesCard() {
  const canManage = useCan('team:write');
  const client = useQueryClient();
  const roles = useRoles();
  const catalog = useApi<{ permissions: PermissionEntry[] }>(['permissions'], '/admin/permissions');
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => api(`/admin/roles/${id}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: ['roles'] }),
  });
  if (roles.isPending || catalog.isPending) return <Loading />;
  if (roles.isError || catalog.isError) return <ErrorNote error={roles.error ?? catalog.error} />;
  const grid = gridOf(catalog.data.permissions);
  return (
    <Card title="Roles">
      <ErrorNote error={remove.error} />
      <table>
        <thead>
          <tr>
            <th>Role</th>
            <th>Permissions</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {roles.data.roles.map((r) => (
            <tr key={r.id}>
              <td>
                <strong>{r.name}</strong>
                {r.built_in && <span className="muted"> (built in)</span>}
                {r.description && <div className="muted">{r.description}</div>}
              </td>
              <td>
                <code>{r.permissions.join(', ') || '—'}</code>
              </td>
              <td className="row-actions">
                {canManage && !r.built_in && (
                  <>
                    <button type="button" className="btn" onClick={() => setEditing(r)}>
                      Edit
                    </button>
                    <ConfirmButton
                      label="Delete"
                      title={`Delete the role ${r.name}?`}
                      body="Only a role nobody holds can be deleted."
                      danger
                      onConfirm={() => remove.mutate(r.id)}
                    />
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {canManage && editing === null && (
        <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
          New role
        </button>
      )}
      {editing !== null && (
        <RoleForm
          key={editing === 'new' ? 'new' : editing.id}
          role={editing === 'new' ? null : editing}
          grid={grid}
          onDone={() => setEditing(null)}
        />
      )}
    </Card>
  );
}

function RoleForm({ role, grid, onDone }: { role: Role | null; grid: ReturnType<typeof gridOf>; onDone: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState(role?.name ?? '');
  const [ticked, setTicked] = useState<Set<string>>(() => {
    const all = [...grid.exists];
    return new Set(role ? all.filter((p) => grants(role.permissions, p)) : []);
  });
  const save = useMutation({
    mutationFn: () =>
      api(role ? `/admin/roles/${role.id}` : '/admin/roles', {
        method: 'POST',
        body: { name, permissions: [...ticked].sort() },
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['roles'] });
      onDone();
    },
  });
  const toggle = (p: string) =>
    setTicked((s) => {
      const next = new Set(s);
      if (next.has(p)) next.delete(p);
      else next.add(p);
      return next;
    });
  return (
    <SubmitForm label={role ? `Edit role ${role.name}` : 'New role'} onSubmit={() => save.mutate()}>
      <Field
        label="Name"
        name="name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={save.error}
      />
      <table className="permission-grid">
        <thead>
          <tr>
            <th>Resource</th>
            {grid.actions.map((a) => (
              <th key={a}>{a}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.resources.map((res) => (
            <tr key={res}>
              <td>{res}</td>
              {grid.actions.map((a) => {
                const p = `${res}:${a}`;
                return (
                  <td key={a}>
                    {grid.exists.has(p) && (
                      <input type="checkbox" aria-label={p} checked={ticked.has(p)} onChange={() => toggle(p)} />
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNote error={save.error} skipField />
      <div className="actions">
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
        <SubmitButton pending={save.isPending}>Save role</SubmitButton>
      </div>
    </SubmitForm>
  );
}
