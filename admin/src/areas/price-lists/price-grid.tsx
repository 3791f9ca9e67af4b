import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { toMinor } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, Empty, ErrorNote, Field, useDebounced } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { batchOf, gridRows, type Labels } from './price-grid-logic.ts';
import type { GridRow, PriceList } from './types.ts';

/**
 * The price grid: a row per variant, currency, region and quantity range. Rows are edited in
 * place and saved together as one batch (create / update / delete), all or nothing.
 */

let seq = 0;
const nextKey = () => `new-${++seq}`;
/** Labels of variants picked in this session: the grid is rebuilt after a save, the names stay. */
const seen: Labels = {};

interface FoundProduct {
  id: string;
  title: string;
  variants: { id: string; title: string; sku: string | null }[];
}

function VariantPicker({ onPick }: { onPick: (variantId: string, label: string) => void }) {
  const [search, setSearch] = useState('');
  const q = useDebounced(search);
  const found = useQuery({
    queryKey: ['products', { q, limit: 10, picker: true }],
    queryFn: ({ signal }) =>
      api<{ products: FoundProduct[] }>('/admin/products', { query: { q, limit: 10, count: false }, signal }),
    enabled: q.trim().length > 0,
  });
  return (
    <div>
      <Field
        label="Add a variant"
        name="variant-search"
        type="search"
        placeholder="Product title"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {found.data && q && (
        <ul className="matches" aria-label="Matching variants">
          {found.data.products.length === 0 && <li>No product matches.</li>}
          {found.data.products.flatMap((p) =>
            p.variants.map((v) => {
              const label = `${p.title} · ${v.title}`;
              return (
                <li key={v.id}>
                  {label} {v.sku && <small>{v.sku}</small>}{' '}
                  <button type="button" className="btn" onClick={() => onPick(v.id, label)} aria-label={`Add ${label}`}>
                    Add
                  </button>
                </li>
              );
            }),
          )}
        </ul>
      )}
    </div>
  );
}

export function PriceGrid({ list }: { list: PriceList }) {
  const client = useQueryClient();
  const notify = useToast();
  const canWrite = useCanWrite();
  const [rows, setRows] = useState<GridRow[]>(() => gridRows(list.prices));
  const [labels, setLabels] = useState<Labels>(() => ({ ...seen }));
  const [problem, setProblem] = useState<ApiError | null>(null);
  const save = useMutation({
    mutationFn: () =>
      api(`/admin/price-lists/${list.id}/prices/batch`, { method: 'POST', body: batchOf(list.prices, rows) }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['price-list', list.id] });
      await client.invalidateQueries({ queryKey: ['price-lists'] });
      notify('Prices saved', 'success');
    },
  });
  const edit = (key: string, patch: Partial<GridRow>) =>
    setRows(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = (variant_id: string, currency_code = rows.find((r) => r.variant_id === variant_id)?.currency_code) =>
    setRows([
      ...rows,
      {
        key: nextKey(),
        variant_id,
        currency_code: currency_code ?? rows[0]?.currency_code ?? 'eur',
        amount: '',
        min_quantity: '',
        max_quantity: '',
        region_id: '',
      },
    ]);
  const submit = () => {
    const bad = rows.find((r) => toMinor(r.amount, r.currency_code) === null);
    if (bad) {
      setProblem(new ApiError(400, 'invalid_data', 'Every price needs an amount, such as 19.90', 'amount'));
      return;
    }
    setProblem(null);
    save.mutate();
  };
  const variants = [...new Set(rows.map((r) => r.variant_id))];
  return (
    <Card
      title={`Prices (${list.prices.length})`}
      actions={
        canWrite && (
          <button type="button" className="btn btn-primary" onClick={submit} disabled={save.isPending}>
            Save prices
          </button>
        )
      }
    >
      {variants.length === 0 ? (
        <Empty>No prices yet: add a variant below.</Empty>
      ) : (
        <table className="price-grid">
          <thead>
            <tr>
              <th>Variant</th>
              <th>Currency</th>
              <th className="num">Price</th>
              <th className="num">From quantity</th>
              <th className="num">To quantity</th>
              <th>Region id (optional)</th>
              {canWrite && <th />}
            </tr>
          </thead>
          {variants.map((variantId) => (
            <tbody key={variantId}>
              {rows
                .filter((r) => r.variant_id === variantId)
                .map((r, i) => (
                  <tr key={r.key}>
                    <td>{i === 0 ? (labels[variantId] ?? <code>{variantId}</code>) : null}</td>
                    <td>
                      <input
                        aria-label="Currency"
                        size={4}
                        value={r.currency_code}
                        disabled={!canWrite}
                        onChange={(e) => edit(r.key, { currency_code: e.target.value.toLowerCase() })}
                      />
                    </td>
                    <td className="num">
                      <input
                        aria-label="Price"
                        inputMode="decimal"
                        size={8}
                        value={r.amount}
                        disabled={!canWrite}
                        onChange={(e) => edit(r.key, { amount: e.target.value })}
                      />
                    </td>
                    <td className="num">
                      <input
                        aria-label="From quantity"
                        type="number"
                        min={0}
                        value={r.min_quantity}
                        disabled={!canWrite}
                        onChange={(e) => edit(r.key, { min_quantity: e.target.value })}
                      />
                    </td>
                    <td className="num">
                      <input
                        aria-label="To quantity"
                        type="number"
                        min={0}
                        value={r.max_quantity}
                        disabled={!canWrite}
                        onChange={(e) => edit(r.key, { max_quantity: e.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        aria-label="Region id"
                        value={r.region_id}
                        disabled={!canWrite}
                        onChange={(e) => edit(r.key, { region_id: e.target.value.trim() })}
                      />
                    </td>
                    {canWrite && (
                      <td className="num nowrap">
                        {i === 0 && (
                          <button type="button" className="btn" onClick={() => add(variantId)}>
                            Add tier
                          </button>
                        )}{' '}
                        <button
                          type="button"
                          className="btn"
                          aria-label="Remove price"
                          onClick={() => setRows(rows.filter((x) => x.key !== r.key))}
                        >
                          ×
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
            </tbody>
          ))}
        </table>
      )}
      <ErrorNote error={problem ?? save.error} />
      {canWrite && (
        <VariantPicker
          onPick={(id, label) => {
            seen[id] = label;
            setLabels({ ...labels, [id]: label });
            add(id);
          }}
        />
      )}
      <small className="hint">
        Amounts are in the currency’s units (19.90). A range-less price applies at any quantity; a tier applies from its
        “from” quantity up to its “to” quantity, both included. Saved all together, or not at all.
      </small>
    </Card>
  );
}
