import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, Route, Routes } from 'react-router';
import { api } from '../../lib/api.ts';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { Card, Empty, ErrorNote, Field, Loading, PageHeader, Pager, useDebounced } from '../../components/ui.tsx';
import { ItemPage } from './item-page.tsx';
import { ReservationList } from './reservations.tsx';
import { InventoryTabs } from './tabs.tsx';
import type { InventoryItem } from './types.ts';
import { UrlTextField } from '../../components/form-pieces.tsx';

/** Inventory: items with their stock summed over locations, an item's levels, reservations (docs/admin-panel.md). */

const LIMIT = 50;

function ItemList() {
  const [params, set] = useUrlFilters();
  const q = params.get('q') ?? '';
  const offset = Number(params.get('offset') ?? 0);
  const debouncedQ = useDebounced(q);
  const list = useQuery({
    queryKey: ['inventory-items', { q: debouncedQ, offset }],
    queryFn: ({ signal }) =>
      api<{ inventory_items: InventoryItem[]; count: number }>('/admin/inventory-items', {
        query: { q: debouncedQ, limit: LIMIT, offset },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Inventory" />
      <InventoryTabs />
      <Card>
        <search className="filters">
          <UrlTextField label="Search" name="q" type="search" placeholder="SKU, title or description" />
        </search>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorNote error={list.error} />
        ) : list.data.inventory_items.length === 0 ? (
          <Empty>No inventory items found.</Empty>
        ) : (
          <div className="table-wrap">
            <table aria-label="Inventory items">
              <thead>
                <tr>
                  <th>SKU</th>
                  <th>Title</th>
                  <th className="num">Locations</th>
                  <th className="num">Stocked</th>
                  <th className="num">Reserved</th>
                  <th className="num">Available</th>
                </tr>
              </thead>
              <tbody>
                {list.data.inventory_items.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <Link to={`/inventory/${item.id}`}>{item.sku ?? item.id}</Link>
                    </td>
                    <td>{item.title ?? '—'}</td>
                    <td className="num">{item.location_levels.length}</td>
                    <td className="num">{item.stocked_quantity}</td>
                    <td className="num">{item.reserved_quantity}</td>
                    <td className="num">{item.stocked_quantity - item.reserved_quantity}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.data && (
          <Pager
            offset={offset}
            limit={LIMIT}
            count={list.data.count}
            shown={list.data.inventory_items.length}
            onChange={(o) => set('offset', String(o))}
          />
        )}
      </Card>
    </>
  );
}

export default function InventoryArea() {
  return (
    <Routes>
      <Route index element={<ItemList />} />
      <Route path="reservations" element={<ReservationList />} />
      <Route path=":id" element={<ItemPage />} />
    </Routes>
  );
}
