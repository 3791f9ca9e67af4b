import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ApiError, api } from '../../lib/api.ts';
import { dateTime } from '../../lib/format.ts';
import { useCanWrite, useSession } from '../../lib/session.tsx';
import { Card, Empty, ErrorNote, Field, Loading, PageHeader } from '../../components/ui.tsx';
import { Table } from '../../components/query-table.tsx';
import { SelectField, namedChoices, SubmitButton, SubmitForm } from '../../components/form-pieces.tsx';
import { BackLink } from '../../components/page-links.tsx';
import { useToast } from '../../components/toasts.tsx';
import {
  ADJUSTMENTS_KEPT,
  type Adjustment,
  type InventoryItem,
  type Level,
  adjustmentsOf,
  locationName,
  useLocations,
} from './types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type ItemEnvelope = { inventory_item: InventoryItem };

/**
 * Sets a level's stocked quantity, then records the reason in the item's metadata (the level API
 * takes no reason). Two requests: the stock is changed even when the note cannot be written, and
 * the caller says so.
 */
async function adjustStock(item: InventoryItem, level: Level, to: number, reason: string, by: string) {
  const { inventory_item: changed } = await api<ItemEnvelope>(
    `/admin/inventory-items/${item.id}/location-levels/${level.location_id}`,
    { method: 'POST', body: { stocked_quantity: to } },
  );
  const entry: Adjustment = {
    location_id: level.location_id,
    from: level.stocked_quantity,
    to,
    reason,
    at: new Date().toISOString(),
    by,
  };
  const history = [...adjustmentsOf(changed), entry].slice(-ADJUSTMENTS_KEPT);
  try {
    return await api<ItemEnvelope>(`/admin/inventory-items/${item.id}`, {
      method: 'POST',
      body: { metadata: { ...(changed.metadata ?? {}), stock_adjustments: history } },
    });
  } catch (err) {
    throw new ApiError(0, 'partial', `Stock set to ${to}, but the reason was not saved: ${(err as Error).message}`);
  }
}

function AdjustForm({
  item,
  level,
  label,
  onDone,
}: {
  item: InventoryItem;
  level: Level;
  label: string;
  onDone: () => void;
}) {
  const { user } = useSession();
  const client = useQueryClient();
  const notify = useToast();
  const [quantity, setQuantity] = useState(String(level.stocked_quantity));
  const [reason, setReason] = useState('');
  const save = useMutation({
    mutationFn: () => adjustStock(item, level, Number(quantity), reason.trim(), user.email),
    onSuccess: ({ inventory_item }) => {
      client.setQueryData(['inventory-item', item.id], { inventory_item });
      void client.invalidateQueries({ queryKey: ['inventory-items'] });
      notify(`Stock at ${label} set to ${quantity}`, 'success');
      onDone();
    },
    onError: () => void client.invalidateQueries({ queryKey: ['inventory-item', item.id] }),
  });
  return (
    <SubmitForm label={`Adjust stock at ${label}`} onSubmit={() => save.mutate()}>
      <div className="row">
        <Field
          label="New stocked quantity"
          name="stocked_quantity"
          type="number"
          min={level.reserved_quantity}
          step={1}
          required
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={save.error}
        />
        <Field
          label="Reason"
          name="reason"
          required
          maxLength={200}
          placeholder="Stocktake, damaged, found…"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <div className="actions">
          <SubmitButton pending={save.isPending}>Save</SubmitButton>
          <button type="button" className="btn" onClick={onDone}>
            Cancel
          </button>
        </div>
      </div>
      {level.reserved_quantity > 0 && (
        <small className="hint">Not below the {level.reserved_quantity} reserved here.</small>
      )}
      <ErrorNote error={save.error} skipField />
    </SubmitForm>
  );
}

function Levels({ item }: { item: InventoryItem }) {
  const canWrite = useCanWrite();
  const locations = useLocations();
  const [adjusting, setAdjusting] = useState<string | null>(null);
  const cols = canWrite ? 7 : 6;
  return (
    <Card title="Stock per location">
      {item.location_levels.length === 0 ? (
        <Empty>This item is not stocked at any location.</Empty>
      ) : (
        <div className="table-wrap">
          <table aria-label="Levels">
            <thead>
              <tr>
                <th>Location</th>
                <th className="num">Stocked</th>
                <th className="num">Reserved</th>
                <th className="num">Incoming</th>
                <th className="num">Available</th>
                <th>Updated</th>
                {canWrite && <th aria-label="Actions" />}
              </tr>
            </thead>
            <tbody>
              {item.location_levels.flatMap((level) => {
                const label = locationName(locations.data, level.location_id);
                const rows = [
                  <tr key={level.id}>
                    <td>{label}</td>
                    <td className="num">{level.stocked_quantity}</td>
                    <td className="num">{level.reserved_quantity}</td>
                    <td className="num">{level.incoming_quantity}</td>
                    <td className="num">{level.available_quantity}</td>
                    <td>{dateTime(level.updated_at)}</td>
                    {canWrite && (
                      <td>
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-expanded={adjusting === level.location_id}
                          aria-label={`Adjust stock at ${label}`}
                          onClick={() => setAdjusting(adjusting === level.location_id ? null : level.location_id)}
                        >
                          Adjust stock
                        </button>
                      </td>
                    )}
                  </tr>,
                ];
                if (adjusting === level.location_id)
                  rows.push(
                    <tr key={`${level.id}-adjust`}>
                      <td colSpan={cols}>
                        <AdjustForm item={item} level={level} label={label} onDone={() => setAdjusting(null)} />
                      </td>
                    </tr>,
                  );
                return rows;
              })}
            </tbody>
          </table>
        </div>
      )}
      {canWrite && <AddLevel item={item} />}
    </Card>
  );
}

function AddLevel({ item }: { item: InventoryItem }) {
  const locations = useLocations();
  const client = useQueryClient();
  const notify = useToast();
  const free = (locations.data ?? []).filter((l) => !item.location_levels.some((v) => v.location_id === l.id));
  const [location, setLocation] = useState('');
  const [stocked, setStocked] = useState('0');
  const [incoming, setIncoming] = useState('0');
  const add = useMutation({
    mutationFn: () =>
      api<ItemEnvelope>(`/admin/inventory-items/${item.id}/location-levels`, {
        method: 'POST',
        body: { location_id: location, stocked_quantity: Number(stocked), incoming_quantity: Number(incoming) },
      }),
    onSuccess: (data) => {
      client.setQueryData(['inventory-item', item.id], data);
      void client.invalidateQueries({ queryKey: ['inventory-items'] });
      notify(`Stocked at ${locationName(locations.data, location)}`, 'success');
      setLocation('');
      setStocked('0');
      setIncoming('0');
    },
  });
  if (!locations.data || free.length === 0) return null;
  return (
    <form
      aria-labelledby="add-level-title"
      className="add-level"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <h3 id="add-level-title">Stock at another location</h3>
      <div className="row">
        <SelectField
          label="Location"
          name="location_id"
          required
          value={location}
          onChange={setLocation}
          error={add.error}
          none="Choose…"
          choices={namedChoices(free)}
        />
        <Field
          label="Stocked"
          name="stocked_quantity"
          type="number"
          min={0}
          step={1}
          value={stocked}
          onChange={(e) => setStocked(e.target.value)}
          error={add.error}
        />
        <Field
          label="Incoming"
          name="incoming_quantity"
          type="number"
          min={0}
          step={1}
          value={incoming}
          onChange={(e) => setIncoming(e.target.value)}
          error={add.error}
        />
        <div className="actions">
          <button type="submit" className="btn" disabled={add.isPending}>
            Add location
          </button>
        </div>
      </div>
      <ErrorNote error={add.error} skipField />
    </form>
  );
}

function History({ item }: { item: InventoryItem }) {
  const locations = useLocations();
  const history = adjustmentsOf(item).slice().reverse();
  return (
    <Card title="Stock adjustments">
      {history.length === 0 ? (
        <Empty>No adjustments made in the panel yet.</Empty>
      ) : (
        <Table
          records={history}
          label="Stock adjustments"
          wrap
          head={
            <>
              <th>When</th>
              <th>Location</th>
              <th className="num">From</th>
              <th className="num">To</th>
              <th>Reason</th>
              <th>By</th>
            </>
          }
          row={(a) => (
            <tr key={`${a.at}-${a.location_id}`}>
              <td>{dateTime(a.at)}</td>
              <td>{locationName(locations.data, a.location_id)}</td>
              <td className="num">{a.from}</td>
              <td className="num">{a.to}</td>
              <td>{a.reason}</td>
              <td>{a.by}</td>
            </tr>
          )}
        />
      )}
      <p className="hint">
        The last {ADJUSTMENTS_KEPT} adjustments with their reasons, kept in the item's metadata (
        <code>stock_adjustments</code>).
      </p>
    </Card>
  );
}

export function ItemPage() {
  const { id = '' } = useParams();
  const item = useApi<ItemEnvelope>(['inventory-item', id], `/admin/inventory-items/${id}`);
  const back = <BackLink to="/inventory">Inventory</BackLink>;
  if (item.isPending) return <Loading />;
  if (item.isError)
    return (
      <>
        <PageHeader title="Inventory item" back={back} />
        <ErrorNote error={item.error} />
      </>
    );
  const it = item.data.inventory_item;
  return (
    <>
      <PageHeader title={it.sku ?? it.title ?? it.id} back={back} />
      <Card>
        <dl className="kv">
          <dt>Title</dt>
          <dd>{it.title ?? '—'}</dd>
          <dt>Stocked</dt>
          <dd>{it.stocked_quantity}</dd>
          <dt>Reserved</dt>
          <dd>{it.reserved_quantity}</dd>
          <dt>Available</dt>
          <dd>{it.stocked_quantity - it.reserved_quantity}</dd>
          <dt>Requires shipping</dt>
          <dd>{it.requires_shipping ? 'Yes' : 'No'}</dd>
        </dl>
      </Card>
      <Levels item={it} />
      <History item={it} />
    </>
  );
}
