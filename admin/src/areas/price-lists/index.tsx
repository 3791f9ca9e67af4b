import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, Route, Routes } from 'react-router';
import { api } from '../../lib/api.ts';
import { dateTime } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { SearchFilters } from '../../components/form-pieces.tsx';
import { Badge, Card, PageHeader, useDebounced } from '../../components/ui.tsx';
import { PagedTable } from '../../components/query-table.tsx';
import { PriceListDetail } from './price-list-detail.tsx';
import { listState, type PriceList } from './types.ts';

/** Price lists: sales and member prices over the catalog's own (see docs/price-lists.md). */

const LIMIT = 50;
const STATE_BADGE: Record<string, string> = { active: 'active', draft: 'draft', scheduled: 'info', expired: 'expired' };

function window(l: PriceList): string {
  if (!l.starts_at && !l.ends_at) return 'Always';
  return `${l.starts_at ? dateTime(l.starts_at) : '…'} – ${l.ends_at ? dateTime(l.ends_at) : '…'}`;
}

function PriceListList() {
  const [params, set] = useUrlFilters();
  const q = params.get('q') ?? '';
  const status = params.get('status') ?? '';
  const offset = Number(params.get('offset') ?? 0);
  const debouncedQ = useDebounced(q);
  const canWrite = useCanWrite();
  const list = useQuery({
    queryKey: ['price-lists', { q: debouncedQ, status, offset }],
    queryFn: ({ signal }) =>
      api<{ price_lists: PriceList[]; count: number }>('/admin/price-lists', {
        query: { q: debouncedQ, status: status || undefined, limit: LIMIT, offset },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="Price lists"
        actions={
          canWrite && (
            <Link className="btn btn-primary" to="/price-lists/new">
              Create price list
            </Link>
          )
        }
      />
      <Card>
        <SearchFilters status={status} statuses={['active', 'draft'] as const} set={set} />
        <PagedTable
          list={list}
          rows={(d) => d.price_lists}
          empty="No price lists yet."
          head={
            <>
              <th>Title</th>
              <th>Type</th>
              <th>Status</th>
              <th>When</th>
              <th>Groups</th>
              <th className="num">Prices</th>
            </>
          }
          row={(l) => {
            const state = listState(l);
            return (
              <tr key={l.id}>
                <td>
                  <Link to={`/price-lists/${l.id}`}>{l.title}</Link>
                </td>
                <td>{l.type === 'sale' ? 'Sale' : 'Override'}</td>
                <td>
                  <Badge value={STATE_BADGE[state]}>{state}</Badge>
                </td>
                <td>{window(l)}</td>
                <td>{l.rules['customer.groups.id']?.length ?? 'Everyone'}</td>
                <td className="num">{l.prices.length}</td>
              </tr>
            );
          }}
          offset={offset}
          limit={LIMIT}
          onPage={(o) => set('offset', String(o))}
        />
      </Card>
    </>
  );
}

export default function PriceListsArea() {
  return (
    <Routes>
      <Route index element={<PriceListList />} />
      <Route path=":id" element={<PriceListDetail />} />
    </Routes>
  );
}
