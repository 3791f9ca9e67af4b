import { Link, Route, Routes } from 'react-router';
import { useListQuery, useUrlPage } from '../../lib/api-hooks.ts';

import { ListPage } from '../../components/list-page.tsx';
import { PagedTable } from '../../components/query-table.tsx';
import { ItemPage } from './item-page.tsx';
import { ReservationList } from './reservations.tsx';
import { InventoryTabs } from './tabs.tsx';
import type { InventoryItem } from './types.ts';
import { UrlTextField } from '../../components/form-pieces.tsx';

/** Inventory: items with their stock summed over locations, an item's levels, reservations (docs/admin-panel.md). */

const LIMIT = 50;

function ItemList() {
  const { q, offset, page } = useUrlPage();
  const list = useListQuery<{ inventory_items: InventoryItem[]; count: number }>(
    ['inventory-items', { q, offset }],
    '/admin/inventory-items',
    { q, limit: LIMIT, offset },
  );
  return (
    <ListPage
      title="Inventory"
      intro={<InventoryTabs />}
      filters={<UrlTextField label="Search" name="q" type="search" placeholder="SKU, title or description" />}
    >
      <PagedTable
        list={list}
        rows={(d) => d.inventory_items}
        empty="No inventory items found."
        label="Inventory items"
        wrap
        head={
          <>
            <th>SKU</th>
            <th>Title</th>
            <th className="num">Locations</th>
            <th className="num">Stocked</th>
            <th className="num">Reserved</th>
            <th className="num">Available</th>
          </>
        }
        row={(item) => (
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
        )}
        offset={offset}
        limit={LIMIT}
        onPage={page}
      />
    </ListPage>
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
