import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Route, Routes, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { date, dateTime, relative } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Badge, Card, ConfirmButton, ErrorNote, Loading, PageHeader } from '../../components/ui.tsx';
import { ActionsHead, QueryTable } from '../../components/query-table.tsx';
import { BackLink } from '../../components/page-links.tsx';
import { useToast } from '../../components/toasts.tsx';
import { PLUGINS_KEY } from '../../extensions/slot.tsx';
import { PendingUpdate, PermissionList } from './permissions.tsx';
import { PluginConfig } from './plugin-config.tsx';
import { PluginRuntime } from './plugin-runtime.tsx';
import { busy, type Plugin } from './types.ts';
import { RatingCell, RevocationNote, useListings, type Listing } from './trust.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type Update = Item<Ok<'/admin/plugins/check-updates'>['updates']>;

/** Installed plugins, polled every second while one is installing or updating. */
export function usePluginList() {
  return useApi<{ plugins: Plugin[]; count: number }>(
    PLUGINS_KEY,
    '/admin/plugins',
    { limit: 200 },
    { refetchInterval: (q) => (q.state.data?.plugins.some(busy) ? 1000 : false) },
  );
}

type LicenseCheck = Item<Ok<'/admin/plugins/license-checks'>['license_checks']>;

/** "verified 3 days ago; works offline until 12 Mar" (the 7-day grace of a paid plugin). */
function LicenseStatus({ p, check }: { p: Plugin; check?: LicenseCheck }) {
  if (!p.licensed) return <span className="muted">free</span>;
  const failed = p.status === 'disabled';
  return (
    <div>
      {failed ? <Badge value="expired">license failed</Badge> : <Badge value="active">licensed</Badge>}
      {check && (
        <div className="muted">
          verified {relative(check.last_verified_at)};{' '}
          {new Date(check.grace_until) > new Date()
            ? `works offline until ${dateTime(check.grace_until)}`
            : 'offline grace over'}
          {check.license_expires_at && <> · license until {date(check.license_expires_at)}</>}
        </div>
      )}
    </div>
  );
}

function PluginRow({
  p,
  update,
  check,
  listing,
}: {
  p: Plugin;
  update?: Update;
  check?: LicenseCheck;
  listing?: Listing | 'unknown';
}) {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  const done = async (message: string) => {
    notify(message, 'success');
    await client.invalidateQueries({ queryKey: PLUGINS_KEY });
    await client.invalidateQueries({ queryKey: ['marketplace'] });
    await client.invalidateQueries({ queryKey: ['plugin-updates'] });
  };
  const upgrade = useMutation({
    mutationFn: (version: string) => api(`/admin/plugins/${p.id}/update`, { method: 'POST', body: { version } }),
    onSuccess: () => done(`Updating ${p.name ?? p.manifest_id}…`),
  });
  const remove = useMutation({
    mutationFn: () => api(`/admin/plugins/${p.id}`, { method: 'DELETE' }),
    onSuccess: () => done(`${p.name ?? p.manifest_id} uninstalled`),
  });
  return (
    <tr>
      <td>
        <Link to={`/plugins/${p.id}`}>
          <strong>{p.name ?? p.manifest_id}</strong>
        </Link>
        <div className="muted">
          {p.marketplace_id} · {p.type ?? 'unknown type'} · {p.source ?? '—'}
        </div>
        <RevocationNote p={p} />
        {p.error && !p.revocation && (
          <div className="field-error" role="status">
            {p.error}
          </div>
        )}
      </td>
      <td>
        <RatingCell listing={listing} />
      </td>
      <td>
        {p.version}
        {p.target_version && <div className="muted">→ {p.target_version}</div>}
      </td>
      <td>
        <Badge value={p.status} />
        {busy(p) && <span className="spinner" role="img" aria-label="working" style={{ marginLeft: 6 }} />}
      </td>
      <td>
        <LicenseStatus p={p} check={check} />
      </td>
      <td>
        {update && (
          <div>
            <Badge value="info">{update.latest} available</Badge>{' '}
            <a href={update.changelog_url} target="_blank" rel="noreferrer noopener">
              Changelog
            </a>
          </div>
        )}
      </td>
      <td>
        {canWrite && (
          <div className="actions">
            {update && p.status === 'installed' && (
              <ConfirmButton
                label={`Update to ${update.latest}`}
                title={`Update ${p.name} to ${update.latest}?`}
                body="The running version keeps serving until the new one is verified, migrated and loaded."
                onConfirm={() => upgrade.mutate(update.latest)}
                disabled={upgrade.isPending}
              />
            )}
            <ConfirmButton
              label="Uninstall"
              danger
              title={`Uninstall ${p.name ?? p.manifest_id}?`}
              body="It stops on every instance at once. Its tables and data are kept: reinstalling finds them."
              onConfirm={() => remove.mutate()}
              disabled={remove.isPending || busy(p)}
            />
          </div>
        )}
        <ErrorNote error={upgrade.error ?? remove.error} />
      </td>
    </tr>
  );
}

function PluginList() {
  const list = usePluginList();
  const updates = useApi<{ updates: Update[] }>(['plugin-updates'], '/admin/plugins/check-updates', undefined, {
    staleTime: 5 * 60_000,
    retry: false,
  });
  const listings = useListings(list.data?.plugins ?? []);
  const checks = useApi<{ license_checks: LicenseCheck[] }>(['license-checks'], '/admin/plugins/license-checks');
  return (
    <>
      <PageHeader
        title="Plugins"
        actions={
          <Link className="btn" to="/marketplace">
            Browse the marketplace
          </Link>
        }
      />
      {updates.isError && (
        <p className="note note-warn">Updates could not be checked: {(updates.error as Error).message}</p>
      )}
      <Card>
        <QueryTable
          list={list}
          rows={(d) => d.plugins}
          empty="No plugins installed. Find some in the marketplace."
          wrap
          head={
            <>
              <th>Plugin</th>
              <th>Rating</th>
              <th>Version</th>
              <th>Status</th>
              <th>License</th>
              <th>Updates</th>
              <ActionsHead />
            </>
          }
          row={(p) => (
            <PluginRow
              key={p.id}
              p={p}
              update={updates.data?.updates.find((u) => u.id === p.id)}
              check={checks.data?.license_checks.find((c) => c.plugin_id === p.id)}
              listing={listings.get(p.id)}
            />
          )}
        />
      </Card>
    </>
  );
}

function PluginDetail() {
  const list = usePluginList();
  const { id } = useParams();
  const p = list.data?.plugins.find((x) => x.id === id);
  if (list.isPending) return <Loading />;
  if (!p) return <ErrorNote error={new Error('This plugin is not installed.')} />;
  return (
    <>
      <PageHeader
        back={<BackLink to="/plugins">Plugins</BackLink>}
        title={
          <>
            {p.name ?? p.manifest_id} <Badge value={p.status} />
          </>
        }
      />
      <div className="cols">
        <Card title="Configuration">
          {p.config_fields.length ? (
            <PluginConfig plugin={p} />
          ) : (
            <p className="muted">This plugin has nothing to configure.</p>
          )}
        </Card>
        <Card title="About">
          <p>{p.description}</p>
          <dl className="kv">
            <dt>Marketplace id</dt>
            <dd>{p.marketplace_id}</dd>
            <dt>Version</dt>
            <dd>{p.version}</dd>
            <dt>Source</dt>
            <dd>{p.source ?? '—'}</dd>
            <dt>License</dt>
            <dd>{p.licensed ? 'paid, licensed to this shop' : 'free'}</dd>
            <dt>Installed</dt>
            <dd>{dateTime(p.installed_at)}</dd>
            <dt>Admin extension</dt>
            <dd>{p.admin_bundle ? `sha256 ${p.admin_bundle.sha256.slice(0, 12)}…` : 'none'}</dd>
          </dl>
          <RevocationNote p={p} />
          {p.error && !p.revocation && <p className="note note-error">{p.error}</p>}
        </Card>
        <Card title="Permissions">
          <PendingUpdate pending={p.pending_update} />
          <PermissionList permissions={p.permissions} declared={p.permissions_declared} />
        </Card>
        <PluginRuntime id={p.id} />
      </div>
    </>
  );
}

export default function PluginsArea() {
  return (
    <Routes>
      <Route index element={<PluginList />} />
      <Route path=":id" element={<PluginDetail />} />
    </Routes>
  );
}
