import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { date } from '../../lib/format.ts';
import { useCan } from '../../lib/session.tsx';
import { Badge, Card, ConfirmButton, ErrorNote, Field } from '../../components/ui.tsx';
import { SubmitButton, namedChoices, SelectField, SubmitForm } from '../../components/form-pieces.tsx';
import { QueryTable } from '../../components/query-table.tsx';
import { type Invite, useRoles } from './team-api.ts';
import { useApi } from '../../lib/api-hooks.ts';

/** The link the invite mail carries; shown to the inviter when no email provider sent it. */
const inviteLink = (token: string) => `${window.location.origin}/app/invite?token=${encodeURIComponent(token)}`;

/** Pending and accepted invites: invite by email with a role, resend (new token), withdraw. */
export function InvitesCard() {
  const canManage = useCan('team:write');
  const client = useQueryClient();
  const roles = useRoles();
  const invites = useApi<{ invites: Invite[] }>(['invites'], '/admin/invites', { limit: 100 });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('viewer');
  const [issued, setIssued] = useState<Invite | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: ['invites'] });
  const create = useMutation({
    mutationFn: () => api<{ invite: Invite }>('/admin/invites', { method: 'POST', body: { email, role } }),
    onSuccess: async (d) => {
      setIssued(d.invite);
      setEmail('');
      await refresh();
    },
  });
  const resend = useMutation({
    mutationFn: (id: string) => api<{ invite: Invite }>(`/admin/invites/${id}/resend`, { method: 'POST' }),
    onSuccess: async (d) => {
      setIssued(d.invite);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(`/admin/invites/${id}`, { method: 'DELETE' }),
    onSettled: refresh,
  });
  return (
    <Card title="Invites">
      {canManage && (
        <SubmitForm label="Invite someone" className="inline-form" onSubmit={() => create.mutate()}>
          <Field
            label="Email"
            name="email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={create.error}
          />
          <SelectField
            label="Role"
            name="role"
            value={role}
            onChange={setRole}
            choices={namedChoices(roles.data?.roles)}
          />
          <SubmitButton pending={create.isPending}>Send invite</SubmitButton>
        </SubmitForm>
      )}
      <ErrorNote error={create.error ?? resend.error ?? remove.error} skipField />
      {issued && (
        <p className="note" role="status">
          Invite for <strong>{issued.email}</strong>{' '}
          {issued.token ? (
            <>
              made. No email provider is installed: pass on this link yourself.
              <br />
              <code data-testid="invite-link">{inviteLink(issued.token)}</code>
            </>
          ) : (
            'mailed.'
          )}
        </p>
      )}
      <QueryTable
        list={invites}
        rows={(d) => d.invites}
        empty="No invites."
        head={
          <>
            <th>Email</th>
            <th>Role</th>
            <th>State</th>
            <th>Expires</th>
            <th />
          </>
        }
        row={(i) => (
          <tr key={i.id}>
            <td>{i.email}</td>
            <td>{roles.data?.roles.find((r) => r.id === i.role)?.name ?? i.role}</td>
            <td>
              <Badge value={i.accepted ? 'active' : 'pending'}>{i.accepted ? 'accepted' : 'pending'}</Badge>
            </td>
            <td>{date(i.expires_at)}</td>
            <td className="row-actions">
              {canManage && !i.accepted && (
                <>
                  <button type="button" className="btn" onClick={() => resend.mutate(i.id)}>
                    Resend
                  </button>
                  <ConfirmButton
                    label="Withdraw"
                    title={`Withdraw the invite for ${i.email}?`}
                    body="Its link stops working."
                    danger
                    onConfirm={() => remove.mutate(i.id)}
                  />
                </>
              )}
            </td>
          </tr>
        )}
      />
    </Card>
  );
}
