import { Link, Route, Routes } from 'react-router';
import { dateTime } from '../../lib/format.ts';
import { useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { SearchAndStatus } from '../../components/form-pieces.tsx';
import { Badge } from '../../components/ui.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { WriteLink } from '../../components/page-links.tsx';
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
  const { q, offset, page, params } = useUrlPage();
  const status = params.get('status') ?? '';
  const list = useListQuery<{ price_lists: PriceList[]; count: number }>(
    ['price-lists', { q, status, offset }],
    '/admin/price-lists',
    { q, status: status || undefined, limit: LIMIT, offset },
  );
  return (
    <ListPage
      title="Price lists"
      actions={<WriteLink to="/price-lists/new">Create price list</WriteLink>}
      filters={<SearchAndStatus statuses={['active', 'draft']} />}
    >
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
        onPage={page}
      />
    </ListPage>
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
