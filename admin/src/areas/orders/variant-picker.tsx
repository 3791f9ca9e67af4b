import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api.ts';
import { Field, useDebounced } from '../../components/ui.tsx';

interface FoundProduct {
  id: string;
  title: string;
  variants: { id: string; title: string; sku: string | null }[];
}

export interface PickedVariant {
  id: string;
  label: string;
}

/** Finds a variant by its product's title: the new item an exchange or a claim sends out. */
export function VariantPicker({
  label,
  picked,
  onPick,
  disabled,
}: {
  label: string;
  picked: PickedVariant | null;
  onPick: (v: PickedVariant | null) => void;
  disabled?: boolean;
}) {
  const [search, setSearch] = useState('');
  const q = useDebounced(search);
  const found = useQuery({
    queryKey: ['products', { q, limit: 10, picker: 'order' }],
    queryFn: ({ signal }) =>
      api<{ products: FoundProduct[] }>('/admin/products', { query: { q, limit: 10, count: false }, signal }),
    enabled: q.trim().length > 0 && !picked,
  });
  if (picked)
    return (
      <div className="field">
        <span className="field-label">{label}</span>
        <div className="actions">
          <strong>{picked.label}</strong>
          {!disabled && (
            <button type="button" className="btn btn-small" onClick={() => onPick(null)}>
              Change
            </button>
          )}
        </div>
      </div>
    );
  return (
    <div className="picker">
      <Field
        label={label}
        name="variant-search"
        type="search"
        placeholder="Product title"
        value={search}
        disabled={disabled}
        onChange={(e) => setSearch(e.target.value)}
      />
      {found.data && q && (
        <ul className="matches" aria-label="Matching variants">
          {found.data.products.length === 0 && <li>No product matches.</li>}
          {found.data.products.flatMap((p) =>
            p.variants.map((v) => {
              const name = `${p.title} · ${v.title}`;
              return (
                <li key={v.id}>
                  {name} {v.sku && <small>{v.sku}</small>}{' '}
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Pick ${name}`}
                    onClick={() => onPick({ id: v.id, label: name })}
                  >
                    Pick
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
