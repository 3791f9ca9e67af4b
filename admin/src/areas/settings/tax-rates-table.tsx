import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { useToast } from '../../components/toasts.tsx';
import { ConfirmButton, Empty } from '../../components/ui.tsx';
import type { ProductType, ShippingOption } from './tax-override-form.tsx';
import { TAX_KEY, percent, rateOf, type TaxRate } from './tax-shared.ts';

/** A tax region's rates: the default first, each override with what it applies to, edited in place. */

/** Names of what override rates point at, by id: product types, shipping options, products. */
export interface Names {
  types: ProductType[];
  options: ShippingOption[];
  products: Record<string, string>;
}

/** The targets of an override rate, as the operator reads them. */
function targetsText(t: TaxRate, names: Names): string {
  if (!t.rules.length) return t.is_default ? 'Everything else' : 'Nothing (no target)';
  return t.rules
    .map((r) =>
      r.reference === 'product_type'
        ? `type ${names.types.find((p) => p.id === r.reference_id)?.value ?? r.reference_id}`
        : r.reference === 'shipping_option'
          ? `shipping ${names.options.find((o) => o.id === r.reference_id)?.name ?? r.reference_id}`
          : `product ${names.products[r.reference_id] ?? r.reference_id}`,
    )
    .join(', ');
}

function RateRow({ t, names }: { t: TaxRate; names: Names }) {
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const notify = useToast();
  const [rate, setRate] = useState(t.rate == null ? '' : String(t.rate));
  const done = (what: string) => async () => {
    await client.invalidateQueries({ queryKey: TAX_KEY });
    notify(`${t.name} ${what}`, 'success');
  };
  const failed = (e: unknown) => notify((e as Error).message, 'error');
  const save = useMutation({
    mutationFn: () => api(`/admin/tax-rates/${t.id}`, { method: 'POST', body: { rate: rateOf(rate) } }),
    onSuccess: done('saved'),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => api(`/admin/tax-rates/${t.id}`, { method: 'DELETE' }),
    onSuccess: done('deleted'),
    onError: failed,
  });
  return (
    <tr>
      <td>
        {t.name} {t.is_default && <span className="badge badge-info">default</span>}
      </td>
      <td>
        <code>{t.code}</code>
      </td>
      <td>{targetsText(t, names)}</td>
      <td>{t.is_combinable ? 'Yes' : 'No'}</td>
      <td className="num">
        {canWrite ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate();
            }}
            style={{ display: 'flex', gap: '.5rem', justifyContent: 'flex-end' }}
          >
            <input
              aria-label={`Rate of ${t.name}, percent`}
              inputMode="decimal"
              size={6}
              value={rate}
              onChange={(e) => setRate(e.target.value)}
            />
            <button type="submit" className="btn" disabled={save.isPending || rate === String(t.rate ?? '')}>
              Save
            </button>
          </form>
        ) : (
          percent(t.rate)
        )}
      </td>
      {canWrite && (
        <td>
          <ConfirmButton
            label="Delete"
            title={`Delete ${t.name}?`}
            body="Carts are taxed without it from their next update."
            danger
            onConfirm={() => remove.mutate()}
          />
        </td>
      )}
    </tr>
  );
}

export function RatesTable({ rates, names }: { rates: TaxRate[]; names: Names }) {
  const canWrite = useCanWrite();
  if (rates.length === 0) return <Empty>No rates yet.</Empty>;
  const sorted = [...rates].sort((a, b) => Number(b.is_default) - Number(a.is_default));
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Code</th>
          <th>Applies to</th>
          <th>Combinable</th>
          <th className="num">Rate (%)</th>
          {canWrite && <th aria-label="Actions" />}
        </tr>
      </thead>
      <tbody>
        {sorted.map((t) => (
          <RateRow key={`${t.id}-${t.rate}`} t={t} names={names} />
        ))}
      </tbody>
    </table>
  );
}
