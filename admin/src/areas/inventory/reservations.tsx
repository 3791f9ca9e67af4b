import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../lib/api.ts';
import { dateTime } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { useApi, useListQuery, useUrlPage } from '../../lib/api-hooks.ts';
import { namedChoices, UrlSelectField } from '../../components/form-pieces.tsx';
import { PagedTable } from '../../components/query-table.tsx';
import { ConfirmButton } from '../../components/ui.tsx';
import { ListPage } from '../../components/list-page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ReservationForm } from './reservation-form.tsx';
import { InventoryTabs } from './tabs.tsx';
import { type InventoryItem, type Reservation, locationName, useLocations } from './types.ts';

const LIMIT = 50;

/**
 * Reservations: stock held at a location, by an order line (checkout) or by hand. Deleting one
 * releases its units (they count as available again); Edit moves one to another location keeping
 * the item, or changes its quantity or description. A reservation names its order line only; the
 * API has no route from a line to its order, so the line id is shown, not a link to the order.
 */
export function ReservationList() {
  const { params, offset, page } = useUrlPage();
  const location = params.get('location_id') ?? '';
  const canWrite = useCanWrite();
  const notify = useToast();
  const client = useQueryClient();
  const locations = useLocations();
  const list = useListQuery<{ reservations: Reservation[]; count: number }>(
    ['reservations', { location, offset }],
    '/admin/reservations',
    { location_id: location ? [location] : undefined, limit: LIMIT, offset },
  );
  const itemIds = [...new Set(list.data?.reservations.map((r) => r.inventory_item_id) ?? [])];
  const items = useApi<{ inventory_items: InventoryItem[] }>(
    ['inventory-items', 'by-id', itemIds],
    '/admin/inventory-items',
    { id: itemIds, limit: itemIds.length },
    { enabled: itemIds.length > 0 },
  );
  const [editing, setEditing] = useState<string | null>(null);
  const itemOf = (id: string) => items.data?.inventory_items.find((i) => i.id === id);
  const release = useMutation({
    mutationFn: (r: Reservation) => api(`/admin/reservations/${r.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      notify('Reservation deleted: its units are available again', 'success');
      void client.invalidateQueries({ queryKey: ['reservations'] });
      void client.invalidateQueries({ queryKey: ['inventory-items'] });
    },
    onError: (err) => notify((err as Error).message, 'error'),
  });
  return (
    <ListPage
      title="Inventory"
      intro={<InventoryTabs />}
      filters={<UrlSelectField label="Location" name="location_id" none="Any" choices={namedChoices(locations.data)} />}
    >
      <PagedTable
        list={list}
        rows={(d) => d.reservations}
        empty="No reservations: nothing is held."
        label="Reservations"
        wrap
        head={
          <>
            <th>Item</th>
            <th>Location</th>
            <th className="num">Quantity</th>
            <th>Order line</th>
            <th>Description</th>
            <th>Created</th>
            {canWrite && <th aria-label="Actions" />}
          </>
        }
        row={(r) => {
          const item = itemOf(r.inventory_item_id);
          return (
            <Fragment key={r.id}>
              <tr>
                <td>
                  <Link to={`/inventory/${r.inventory_item_id}`}>
                    {item ? (item.sku ?? item.title ?? item.id) : r.inventory_item_id}
                  </Link>
                  {item?.title && item.sku && <div className="muted">{item.title}</div>}
                </td>
                <td>{locationName(locations.data, r.location_id)}</td>
                <td className="num">
                  {r.quantity}
                  {r.allow_backorder && <span className="muted"> (backorder)</span>}
                </td>
                <td>{r.line_item_id ? <code>{r.line_item_id}</code> : <span className="muted">by hand</span>}</td>
                <td>{r.description ?? '—'}</td>
                <td>{dateTime(r.created_at)}</td>
                {canWrite && (
                  <td>
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-expanded={editing === r.id}
                      onClick={() => setEditing(editing === r.id ? null : r.id)}
                    >
                      Edit
                    </button>{' '}
                    <ConfirmButton
                      label="Delete"
                      title="Delete this reservation?"
                      body={
                        r.line_item_id
                          ? 'Its order line no longer holds these units: they can be sold again. Cancel or edit the order instead if it is still to ship.'
                          : 'The units become available again.'
                      }
                      danger
                      disabled={release.isPending}
                      onConfirm={() => release.mutate(r)}
                    />
                  </td>
                )}
              </tr>
              {editing === r.id && (
                <tr>
                  <td colSpan={7}>
                    <ReservationForm
                      reservation={r}
                      item={item}
                      locations={locations.data}
                      onDone={() => setEditing(null)}
                    />
                  </td>
                </tr>
              )}
            </Fragment>
          );
        }}
        offset={offset}
        limit={LIMIT}
        onPage={page}
      />
    </ListPage>
  );
}
