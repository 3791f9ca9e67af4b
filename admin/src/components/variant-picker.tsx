import { useState } from 'react';

import { Field, useDebounced } from './ui.tsx';
import { useApi } from '../lib/api-hooks.ts';

interface FoundProduct {
  id: string;
  title: string;
  variants: { id: string; title: string; sku: string | null }[];
}

export interface PickedVariant {
  id: string;
  /** "Product title · variant title". */
  label: string;
}

/**
 * Finds a variant by its product's title and picks it from the matches: the new item an exchange
 * sends out ("Pick", then shown with "Change" while `picked`), a variant added to a price list's
 * grid ("Add", never held).
 */
export function VariantPicker({
  label,
  picked = null,
  onPick,
  verb = 'Pick',
  disabled,
}: {
  label: string;
  picked?: PickedVariant | null;
  onPick: (v: PickedVariant | null) => void;
  /** Each match's button (small in a form's row, full-size under the grid); its name is `${verb} ${match}`. */
  verb?: 'Pick' | 'Add';
  disabled?: boolean;
}) {
  const [search, setSearch] = useState('');
  const q = useDebounced(search);
  const found = useApi<{ products: FoundProduct[] }>(
    ['products', { q, limit: 10, picker: true }],
    '/admin/products',
    { q, limit: 10, count: false },
    { enabled: q.trim().length > 0 && !picked },
  );
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
                    className={verb === 'Pick' ? 'btn btn-small' : 'btn'}
                    aria-label={`${verb} ${name}`}
                    onClick={() => onPick({ id: v.id, label: name })}
                  >
                    {verb}
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
