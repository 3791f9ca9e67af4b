import { Link, useParams } from 'react-router';

import { dateTime } from '../../lib/format.ts';
import { Card, ErrorNote, Loading, PageHeader } from '../../components/ui.tsx';
import { BackLink } from '../../components/page-links.tsx';
import { EntryActions, busyEntry, type Entry } from './actions.tsx';
import { StatusBadge } from './feed-page.tsx';
import { PermissionList, type Permissions } from '../plugins/permissions.tsx';
import { useApi } from '../../lib/api-hooks.ts';

interface Item extends Entry {
  description: string | null;
  versions: { version: string; published_at: string; changelog_url: string | null }[];
  permissions: Permissions | null;
  permissions_declared: boolean | null;
}

/** One item: full description, every version, install status, Install or Buy. */
export function ItemPage() {
  const marketplaceId = useParams()['*'] ?? '';
  const item = useApi<{ product: Item }>(
    ['marketplace', 'item', marketplaceId],
    `/admin/marketplace/feed/${marketplaceId}`,
    undefined,
    { retry: false, refetchInterval: (q) => (q.state.data && busyEntry(q.state.data.product) ? 1000 : false) },
  );
  if (item.isPending) return <Loading />;
  if (item.isError) return <ErrorNote error={item.error} />;
  const p = item.data.product;
  return (
    <>
      <PageHeader
        back={<BackLink to="/marketplace">Marketplace</BackLink>}
        title={
          <>
            {p.name} <StatusBadge e={p} />
          </>
        }
        actions={<EntryActions e={p} />}
      />
      <div className="cols">
        <Card title="About">
          <p style={{ whiteSpace: 'pre-wrap' }}>{p.description || 'No description.'}</p>
          <dl className="kv">
            <dt>Id</dt>
            <dd>{p.marketplace_id}</dd>
            <dt>Type</dt>
            <dd>{p.type}</dd>
            <dt>Price</dt>
            <dd>{p.price_eur > 0 ? `€${p.price_eur.toFixed(2)}` : 'Free'}</dd>
            <dt>Source</dt>
            <dd>{p.source === 'local' ? 'local plugin folder' : 'marketplace'}</dd>
            {p.plugin_id && (
              <>
                <dt>Installed</dt>
                <dd>
                  <Link to={`/plugins/${p.plugin_id}`}>{p.installed_version} (manage)</Link>
                </dd>
              </>
            )}
          </dl>
        </Card>
        <Card title="Asks for">
          <PermissionList permissions={p.permissions} declared={p.permissions_declared} />
        </Card>
        <Card title="Versions">
          <table>
            <thead>
              <tr>
                <th>Version</th>
                <th>Published</th>
                <th>Changelog</th>
              </tr>
            </thead>
            <tbody>
              {p.versions.map((v) => (
                <tr key={v.version}>
                  <td>{v.version}</td>
                  <td>{dateTime(v.published_at)}</td>
                  <td>
                    {v.changelog_url ? (
                      <a href={v.changelog_url} target="_blank" rel="noreferrer noopener">
                        Changelog
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      </div>
    </>
  );
}
