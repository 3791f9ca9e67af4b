import { Link } from 'react-router';
import { useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { QueryPager } from '../../components/query-table.tsx';
import { ApiError } from '../../lib/api.ts';
import { useSession } from '../../lib/session.tsx';
import { Badge, Empty, ErrorNote, Loading, useDebounced } from '../../components/ui.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { EntryActions, busyEntry, type Entry } from './actions.tsx';
import { UrlSelectField, UrlTextField, choicesOf } from '../../components/form-pieces.tsx';

const PER_PAGE = 24;
const TYPES = ['admin-extension', 'integration', 'payment-provider', 'notification-provider'];

export function StatusBadge({ e }: { e: Entry }) {
  if (!e.status) return null;
  return (
    <>
      <Badge value={e.status}>
        {e.status}
        {e.installed_version && e.installed_version !== e.version ? ` (${e.installed_version})` : ''}
      </Badge>
      {busyEntry(e) && <span className="spinner" role="img" aria-label="installing" />}
    </>
  );
}

function EntryCard({ e }: { e: Entry }) {
  return (
    <article className="card item-card" aria-label={e.name}>
      <h3>
        <Link to={`/marketplace/${e.marketplace_id}`}>{e.name}</Link>
      </h3>
      <p>
        {e.marketplace_id} · {e.type}
      </p>
      <div className="actions">
        <span>v{e.version}</span>
        <span>{e.price_eur > 0 ? `€${e.price_eur.toFixed(2)}` : 'Free'}</span>
        {e.source === 'local' && <Badge value="muted">local</Badge>}
        <StatusBadge e={e} />
      </div>
      <EntryActions e={e} />
      {e.plugin_id && <Link to={`/plugins/${e.plugin_id}`}>Manage</Link>}
    </article>
  );
}

/** The marketplace feed with install status on every card; local plugins only when the shop is not federated. */
export function FeedPage() {
  const { instance } = useSession();
  const { params, offset, page } = useUrlPage();
  const type = params.get('type') ?? '';
  const debounced = useDebounced(params.get('search') ?? '');
  const feed = useListQuery<{ products: Entry[]; count: number }>(
    ['marketplace', { debounced, type, offset }],
    '/admin/marketplace/feed',
    { search: debounced, type, page: offset / PER_PAGE + 1, per_page: PER_PAGE },
    {
      retry: false,
      // While something installs, follow it on the cards.
      refetchInterval: (q) => (q.state.data?.products.some(busyEntry) ? 1000 : false),
    },
  );
  const down = feed.error instanceof ApiError && (feed.error.status === 502 || feed.error.status === 504);
  return (
    <ListPage
      title="Marketplace"
      intro={
        !instance.federated && (
          <p className="note note-info">
            This shop is not connected to a marketplace: local plugins only (packages in PLUGINS_DIR). Set
            SERVICE_FEDERATION_URL and SERVICE_FEDERATION_PK to browse one.
          </p>
        )
      }
      filters={
        <>
          <UrlTextField label="Search" name="search" type="search" />
          <UrlSelectField label="Type" name="type" none="All types" choices={choicesOf(TYPES)} />
        </>
      }
    >
      {feed.isPending ? (
        <Loading label="Loading the catalog" />
      ) : down ? (
        <div className="note note-warn" role="alert">
          The marketplace cannot be reached right now ({(feed.error as Error).message}). Installed plugins keep working;
          try again later.
        </div>
      ) : feed.isError ? (
        <ErrorNote error={feed.error} />
      ) : feed.data.products.length === 0 ? (
        <Empty>No plugin found.</Empty>
      ) : (
        <div className="cards">
          {feed.data.products.map((e) => (
            <EntryCard key={e.marketplace_id} e={e} />
          ))}
        </div>
      )}
      <QueryPager list={feed} rows={(d) => d.products} offset={offset} limit={PER_PAGE} onPage={page} />
    </ListPage>
  );
}
