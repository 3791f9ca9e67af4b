import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { date } from '../../lib/format.ts';
import { useSession } from '../../lib/session.tsx';
import { Badge, Card, ErrorNote, Loading } from '../../components/ui.tsx';

interface User {
  id: string;
  email: string;
  role: string;
  created_at: string;
}

/** Who can sign in and with which role; users are created with the CLI (no invite flow in the API yet). */
export function UsersPage() {
  const { user: me } = useSession();
  const users = useQuery({
    queryKey: ['users'],
    queryFn: ({ signal }) => api<{ users: User[] }>('/admin/users', { query: { limit: 200 }, signal }),
  });
  return (
    <Card title="Users and roles">
      <p className="muted">
        <strong>admin</strong>: everything. <strong>viewer</strong>: every area read-only; the API refuses their writes.
        Add users with <code>npx emporium user create --email … --password … --role admin|viewer</code>.
      </p>
      {users.isPending ? (
        <Loading />
      ) : users.isError ? (
        <ErrorNote error={users.error} />
      ) : (
        <table>
          <thead>
            <tr>
              <th>Email</th>
              <th>Role</th>
              <th>Since</th>
            </tr>
          </thead>
          <tbody>
            {users.data.users.map((u) => (
              <tr key={u.id}>
                <td>
                  {u.email}
                  {u.id === me.id && <span className="muted"> (you)</span>}
                </td>
                <td>
                  <Badge value={u.role === 'owner' || u.role === 'admin' ? 'active' : 'pending'}>{u.role}</Badge>
                </td>
                <td>{date(u.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
