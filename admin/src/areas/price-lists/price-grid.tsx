import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type InputHTMLAttributes } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { toMinor } from '../../lib/format.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, Empty, ErrorNote } from '../../components/ui.tsx';
import { VariantPicker } from '../../components/variant-picker.tsx';
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

/** What a row holds as typed, one input each. */
type Typed = 'currency_code' | 'amount' | 'min_quantity' | 'max_quantity' | 'region_id';
const QUANTITY = { type: 'number', min: 0 } as const;

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
  /** A row's value as an input of the grid, cleaned as typed (a currency in lower case). */
  const cell = (
    r: GridRow,
    k: Typed,
    label: string,
    attrs: InputHTMLAttributes<HTMLInputElement>,
    clean = (v: string) => v,
  ) => (
    <input
      aria-label={label}
      {...attrs}
      value={r[k]}
      disabled={!canWrite}
      onChange={(e) => edit(r.key, { [k]: clean(e.target.value) })}
    />
  );
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
                    <td>{cell(r, 'currency_code', 'Currency', { size: 4 }, (v) => v.toLowerCase())}</td>
                    <td className="num">{cell(r, 'amount', 'Price', { inputMode: 'decimal', size: 8 })}</td>
                    <td className="num">{cell(r, 'min_quantity', 'From quantity', QUANTITY)}</td>
                    <td className="num">{cell(r, 'max_quantity', 'To quantity', QUANTITY)}</td>
                    <td>{cell(r, 'region_id', 'Region id', {}, (v) => v.trim())}</td>
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
          label="Add a variant"
          verb="Add"
          onPick={(v) => {
            if (!v) return;
            seen[v.id] = v.label;
            setLabels({ ...labels, [v.id]: v.label });
            add(v.id);
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
