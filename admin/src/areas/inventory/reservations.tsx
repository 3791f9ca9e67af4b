import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../lib/api.ts';
import { dateTime } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { useUrlFilters } from '../../lib/url-filters.ts';
import { Card, ConfirmButton, Empty, ErrorNote, Field, Loading, PageHeader, Pager } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { InventoryTabs } from './tabs.tsx';
import { type InventoryItem, type Reservation, locationName, useLocations } from './types.ts';

const LIMIT = 50;

/**
 * Reservations: stock held at a location, by an order line (checkout) or by hand. Deleting one
 * releases its units (they count as available again). A reservation names its order line only; the
 * API has no route from a line to its order, so the line id is shown, not a link to the order.
 */
export function ReservationList() {
  const [params, set] = useUrlFilters();
  const location = params.get('location_id') ?? '';
  const offset = Number(params.get('offset') ?? 0);
  const canWrite = useCanWrite();
  const notify = useToast();
  const client = useQueryClient();
  const locations = useLocations();
  const list = useQuery({
    queryKey: ['reservations', { location, offset }],
    queryFn: ({ signal }) =>
      api<{ reservations: Reservation[]; count: number }>('/admin/reservations', {
        query: { location_id: location ? [location] : undefined, limit: LIMIT, offset },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const itemIds = [...new Set(list.data?.reservations.map((r) => r.inventory_item_id) ?? [])];
  const items = useQuery({
    queryKey: ['inventory-items', 'by-id', itemIds],
    enabled: itemIds.length > 0,
    queryFn: ({ signal }) =>
      api<{ inventory_items: InventoryItem[] }>('/admin/inventory-items', {
        query: { id: itemIds, limit: itemIds.length },
        signal,
      }),
  });
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
    <>
      <PageHeader title="Inventory" />
      <InventoryTabs />
      <Card>
        <search className="filters">
          <Field
            label="Location"
            name="location_id"
            as="select"
            value={location}
            onChange={(e) => set('location_id', e.target.value)}
          >
            <option value="">Any</option>
            {locations.data?.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </Field>
        </search>
        {list.isPending ? (
          <Loading />
        ) : list.isError ? (
          <ErrorNote error={list.error} />
        ) : list.data.reservations.length === 0 ? (
          <Empty>No reservations: nothing is held.</Empty>
        ) : (
          <div className="table-wrap">
            <table aria-label="Reservations">
              <thead>
                <tr>
                  <th>Item</th>
                  <th>Location</th>
                  <th className="num">Quantity</th>
                  <th>Order line</th>
                  <th>Description</th>
                  <th>Created</th>
                  {canWrite && <th aria-label="Actions" />}
                </tr>
              </thead>
              <tbody>
                {list.data.reservations.map((r) => {
                  const item = itemOf(r.inventory_item_id);
                  return (
                    <tr key={r.id}>
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
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {list.data && (
          <Pager
            offset={offset}
            limit={LIMIT}
            count={list.data.count}
            shown={list.data.reservations.length}
            onChange={(o) => set('offset', String(o))}
          />
        )}
      </Card>
    </>
  );
}
