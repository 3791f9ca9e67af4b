import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { useToast } from '../../components/toasts.tsx';
import { PLUGINS_KEY } from '../../extensions/slot.tsx';
import type { Item, Ok } from '../../api/types.ts';

export type Permissions = NonNullable<Item<Ok<'/admin/plugins'>['plugins']>['permissions']>;

const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'none');

function adminExtension({ bundle, methods }: Permissions['admin_extension']): string {
  if (!bundle) return 'none';
  return methods.length
    ? `in this panel; may send ${methods.join(', ')} to the admin API`
    : 'in this panel; reads only';
}

/** What a plugin may do (or, for an old manifest, what it uses): shown before install and once installed. */
export function PermissionList({
  permissions,
  declared,
}: {
  permissions: Permissions | null;
  declared: boolean | null;
}) {
  if (!permissions) return <p className="muted">Not known yet.</p>;
  const routes = [permissions.routes.admin && 'admin', permissions.routes.store && 'store'].filter(Boolean) as string[];
  return (
    <>
      {declared === false && (
        <p className="note note-error">
          Declares no permissions (an older manifest): it may use any event, routes and providers.
        </p>
      )}
      <dl className="kv">
        <dt>Events</dt>
        <dd>{list(permissions.events)}</dd>
        <dt>Read APIs</dt>
        <dd>{list(permissions.apis)}</dd>
        <dt>Routes</dt>
        <dd>{list(routes)}</dd>
        <dt>Providers</dt>
        <dd>{list(permissions.providers)}</dd>
        <dt>Calls hosts</dt>
        <dd>{list(permissions.hosts)} (stated by the vendor, not enforced)</dd>
        <dt>Admin extension</dt>
        <dd>{adminExtension(permissions.admin_extension)}</dd>
      </dl>
    </>
  );
}

/** An update that asks for more rights: what it adds, and the operator's Approve. */
export function PendingUpdate({
  pending,
}: {
  pending: { version: string; new_rights: string[]; approve_url: string } | null;
}) {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  const approve = useMutation({
    mutationFn: () => api(pending!.approve_url, { method: 'POST', body: { version: pending!.version } }),
    onSuccess: async () => {
      notify(`Updating to ${pending!.version}…`, 'success');
      await client.invalidateQueries({ queryKey: PLUGINS_KEY });
    },
  });
  if (!pending) return null;
  return (
    <div className="note">
      <p>
        Version {pending.version} waits for your approval; it also asks for: {list(pending.new_rights)}.
      </p>
      {canWrite && (
        <button type="button" disabled={approve.isPending} onClick={() => approve.mutate()}>
          Approve and update
        </button>
      )}
    </div>
  );
}
