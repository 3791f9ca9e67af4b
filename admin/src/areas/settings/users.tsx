import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { date } from '../../lib/format.ts';
import { useCan, useSession } from '../../lib/session.tsx';
import { Card, ConfirmButton, ErrorNote } from '../../components/ui.tsx';
import { Table, QueryView } from '../../components/query-table.tsx';
import { InvitesCard } from './team-invites.tsx';
import { RolesCard } from './team-roles.tsx';
import { type TeamUser, useRoles } from './team-api.ts';
import { useApi } from '../../lib/api-hooks.ts';

/** Settings → Team: who can sign in, pending invites, and the roles with their permissions. */
export function UsersPage() {
  return (
    <>
      <UsersCard />
      <InvitesCard />
      <RolesCard />
    </>
  );
}

function UsersCard() {
  const { user: me } = useSession();
  const canManage = useCan('team:write');
  const client = useQueryClient();
  const roles = useRoles();
  const users = useApi<{ users: TeamUser[] }>(['users'], '/admin/users', { limit: 200 });
  const refresh = () => client.invalidateQueries({ queryKey: ['users'] });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: string }) =>
      api(`/admin/users/${id}`, { method: 'POST', body: { role } }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/admin/users/${id}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
  return (
    <Card title="Users">
      <ErrorNote error={setRole.error ?? remove.error} />
      <QueryView query={users}>
        {(data) => (
          <Table
            records={data.users}
            head={
              <>
                <th>Email</th>
                <th>Role</th>
                <th>Since</th>
                <th />
              </>
            }
            row={(u) => (
              <tr key={u.id}>
                <td>
                  {u.email}
                  {u.id === me.id && <span className="muted"> (you)</span>}
                </td>
                <td>
                  {canManage && u.id !== me.id ? (
                    <select
                      aria-label={`Role of ${u.email}`}
                      value={u.role}
                      disabled={setRole.isPending}
                      onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value })}
                    >
                      {(roles.data?.roles ?? [{ id: u.role, name: u.role }]).map((r) => (
                        <option key={r.id} value={r.id}>
                          {r.name}
                        </option>
                      ))}
                    </select>
                  ) : (
                    (roles.data?.roles.find((r) => r.id === u.role)?.name ?? u.role)
                  )}
                </td>
                <td>{date(u.created_at)}</td>
                <td>
                  {canManage && u.id !== me.id && (
                    <ConfirmButton
                      label="Remove"
                      title={`Remove ${u.email}?`}
                      body="They can no longer sign in; their sessions end now."
                      danger
                      onConfirm={() => remove.mutate(u.id)}
                    />
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </QueryView>
    </Card>
  );
}
