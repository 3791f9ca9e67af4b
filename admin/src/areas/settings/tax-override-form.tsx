import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { Field, useDebounced } from '../../components/ui.tsx';
import { CheckList } from '../../components/form-pieces.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { TaxForm } from './tax-form.tsx';
import { RateFields, type RateText } from './tax-rate-fields.tsx';
import { productTitles, rateOf, useTaxWrite } from './tax-shared.ts';

/**
 * An override rate of a tax region: a rate (reduced VAT, a shipping rate) that replaces the
 * default for the products, product types and shipping options it names.
 */

export type ProductType = Item<Ok<'/admin/product-types'>['product_types']>;
export type ShippingOption = { id: string; name: string };

function ProductPicker({ picked, onPick }: { picked: string[]; onPick: (id: string, label: string) => void }) {
  const [q, setQ] = useState('');
  const debounced = useDebounced(q);
  const found = useQuery({
    queryKey: ['tax-products', debounced],
    queryFn: ({ signal }) => productTitles({ q: debounced, limit: 5 }, signal),
    enabled: debounced.trim().length > 0,
  });
  return (
    <div>
      <Field label="Add a product" name="product_q" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      {found.data?.products
        .filter((p) => !picked.includes(p.id))
        .map((p) => (
          <button key={p.id} type="button" className="btn" onClick={() => onPick(p.id, p.title)}>
            Add {p.title}
          </button>
        ))}
    </div>
  );
}

export function NewRateForm({
  region,
  types,
  shippingOptions,
}: {
  region: { id: string };
  types: ProductType[];
  shippingOptions: ShippingOption[];
}) {
  const empty: RateText = { name: '', code: '', rate: '' };
  const [v, setV] = useState(empty);
  const [combinable, setCombinable] = useState(false);
  const [typeIds, setTypeIds] = useState<string[]>([]);
  const [products, setProducts] = useState<{ id: string; label: string }[]>([]);
  const [optionIds, setOptionIds] = useState<string[]>([]);
  const save = useTaxWrite(
    () =>
      api('/admin/tax-rates', {
        method: 'POST',
        body: {
          tax_region_id: region.id,
          name: v.name.trim(),
          code: v.code.trim(),
          rate: rateOf(v.rate),
          is_combinable: combinable,
          rules: [
            ...products.map((p) => ({ reference: 'product' as const, reference_id: p.id })),
            ...typeIds.map((id) => ({ reference: 'product_type' as const, reference_id: id })),
            ...optionIds.map((id) => ({ reference: 'shipping_option' as const, reference_id: id })),
          ],
        },
      }),
    'Override rate created',
    () => {
      setV(empty);
      setCombinable(false);
      setTypeIds([]);
      setProducts([]);
      setOptionIds([]);
    },
  );
  return (
    <TaxForm label="New override rate" save={save} submit="Add override rate">
      <div className="row">
        <RateFields
          value={v}
          onChange={setV}
          error={save.error}
          hints={{ name: 'e.g. Reduced VAT', code: 'e.g. DE7', rate: 'percent, e.g. 7' }}
        />
        <Field
          label="Combines with the default rate"
          name="is_combinable"
          type="checkbox"
          checked={combinable}
          onChange={(e) => setCombinable(e.target.checked)}
        />
      </div>
      <CheckList
        legend="Applies to these product types"
        name="type"
        items={types.map((t) => ({ id: t.id, label: t.value }))}
        picked={typeIds}
        onChange={setTypeIds}
        empty="No product types yet."
      />
      <fieldset className="group-picks">
        <legend>And these products</legend>
        {products.map((p) => (
          <button
            key={p.id}
            type="button"
            className="btn"
            onClick={() => setProducts(products.filter((x) => x.id !== p.id))}
          >
            Remove {p.label}
          </button>
        ))}
        <ProductPicker
          picked={products.map((p) => p.id)}
          onPick={(id, label) => setProducts([...products, { id, label }])}
        />
      </fieldset>
      <CheckList
        legend="And these shipping options"
        name="option"
        items={shippingOptions.map((o) => ({ id: o.id, label: o.name }))}
        picked={optionIds}
        onChange={setOptionIds}
        empty="No shipping options yet."
      />
    </TaxForm>
  );
}
