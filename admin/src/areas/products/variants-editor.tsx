import { Card, Field } from '../../components/ui.tsx';

export interface VariantDraft {
  id?: string;
  title: string;
  sku: string;
  manage_inventory: boolean;
  inventory_quantity: string;
  /** option title → value */
  options: Record<string, string>;
  /** currency → decimal as typed */
  prices: Record<string, string>;
}

export function emptyVariant(title = ''): VariantDraft {
  return { title, sku: '', manage_inventory: true, inventory_quantity: '0', options: {}, prices: {} };
}

/** One fieldset per variant: title, SKU, option values, stock and a price per currency. */
export function VariantsEditor({
  variants,
  options,
  currencies,
  onChange,
  error,
  canWrite,
}: {
  variants: VariantDraft[];
  options: { title: string; values: string[] }[];
  currencies: string[];
  onChange: (v: VariantDraft[]) => void;
  error: unknown;
  canWrite: boolean;
}) {
  const update = (i: number, patch: Partial<VariantDraft>) =>
    onChange(variants.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  return (
    <Card
      title="Variants"
      actions={
        canWrite && (
          <button type="button" className="btn btn-small" onClick={() => onChange([...variants, emptyVariant()])}>
            Add variant
          </button>
        )
      }
    >
      {variants.map((v, i) => (
        <fieldset key={v.id ?? `new-${i}`}>
          <legend>{v.title || `Variant ${i + 1}`}</legend>
          <div className="row">
            <Field
              label="Variant title"
              name={`variants.${i}.title`}
              required
              value={v.title}
              onChange={(e) => update(i, { title: e.target.value })}
              error={error}
            />
            <Field
              label="SKU"
              name={`variants.${i}.sku`}
              value={v.sku}
              onChange={(e) => update(i, { sku: e.target.value })}
              error={error}
            />
            {options.map((o) => (
              <Field
                key={o.title}
                label={o.title}
                name={`variants.${i}.options`}
                as="select"
                value={v.options[o.title] ?? ''}
                onChange={(e) => update(i, { options: { ...v.options, [o.title]: e.target.value } })}
                error={error}
              >
                <option value="">Choose…</option>
                {o.values.map((val) => (
                  <option key={val} value={val}>
                    {val}
                  </option>
                ))}
              </Field>
            ))}
          </div>
          <div className="row">
            <Field
              label="Stock"
              name={`variants.${i}.inventory_quantity`}
              type="number"
              min={0}
              value={v.inventory_quantity}
              disabled={!v.manage_inventory}
              onChange={(e) => update(i, { inventory_quantity: e.target.value })}
              error={error}
            />
            {currencies.map((c) => (
              <Field
                key={c}
                label={`Price (${c.toUpperCase()})`}
                name={`variants.${i}.prices`}
                inputMode="decimal"
                placeholder="0.00"
                value={v.prices[c] ?? ''}
                onChange={(e) => update(i, { prices: { ...v.prices, [c]: e.target.value } })}
                error={error}
              />
            ))}
          </div>
          <div className="row">
            <Field
              label="Track stock"
              name={`variants.${i}.manage_inventory`}
              type="checkbox"
              checked={v.manage_inventory}
              onChange={(e) => update(i, { manage_inventory: e.target.checked })}
            />
            {canWrite && variants.length > 1 && (
              <button
                type="button"
                className="btn btn-small btn-danger"
                onClick={() => onChange(variants.filter((_, j) => j !== i))}
              >
                Remove variant
              </button>
            )}
          </div>
        </fieldset>
      ))}
    </Card>
  );
}
