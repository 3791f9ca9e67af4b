import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../lib/api.ts';
import { useCanWrite } from '../../lib/session.tsx';
import { Card, ConfirmButton, ErrorNote, Loading } from '../../components/ui.tsx';
import type { Ok } from '../../api/types.ts';
import { TaxForm } from './tax-form.tsx';
import { NewRateForm, type ShippingOption } from './tax-override-form.tsx';
import { TaxProviderField } from './tax-provider-field.tsx';
import { RateFields, type RateText } from './tax-rate-fields.tsx';
import { RatesTable, type Names } from './tax-rates-table.tsx';
import { place, productTitles, rateOf, useTaxRegions, useTaxWrite, type TaxRegion } from './tax-shared.ts';
import { useApi } from '../../lib/api-hooks.ts';

/** One tax region: its provider, its rates (default and overrides), its provinces. */

function DefaultRateForm({ region }: { region: TaxRegion }) {
  const [v, setV] = useState<RateText>({ name: 'VAT', code: region.country_code.toUpperCase(), rate: '' });
  const save = useTaxWrite(
    () =>
      api('/admin/tax-rates', {
        method: 'POST',
        body: { tax_region_id: region.id, name: v.name, code: v.code, rate: rateOf(v.rate), is_default: true },
      }),
    'Default rate set',
  );
  return (
    <TaxForm label="Default rate" save={save} submit="Set default rate">
      <div className="row">
        <RateFields value={v} onChange={setV} error={save.error} />
      </div>
    </TaxForm>
  );
}

/** The region's tax provider, changed on its own (Medusa's `provider_id` on the tax region). */
function ProviderForm({ region }: { region: TaxRegion }) {
  const canWrite = useCanWrite();
  const current = region.provider_id ?? 'tp_system';
  const [provider, setProvider] = useState(current);
  const save = useTaxWrite(
    () => api(`/admin/tax-regions/${region.id}`, { method: 'POST', body: { provider_id: provider } }),
    'Tax provider saved',
  );
  return (
    <TaxForm
      label="Provider choice"
      save={save}
      submit="Save provider"
      canSubmit={canWrite}
      unchanged={provider === current}
    >
      <div className="row">
        <TaxProviderField value={provider} onChange={setProvider} error={save.error} disabled={!canWrite} />
      </div>
    </TaxForm>
  );
}

/** The names the rates' targets need: product types and shipping options, and the products named. */
function useTargetNames(region: TaxRegion | undefined): Names {
  const types = useApi<Ok<'/admin/product-types'>>(['product-types', 'all'], '/admin/product-types', { limit: 200 });
  const options = useApi<{ shipping_options: ShippingOption[] }>(
    ['shipping-options', 'all'],
    '/admin/shipping-options',
    { limit: 200 },
  );
  const productIds = [
    ...new Set(
      region?.tax_rates.flatMap((t) => t.rules.filter((r) => r.reference === 'product').map((r) => r.reference_id)),
    ),
  ].sort();
  const products = useQuery({
    queryKey: ['tax-products', 'named', productIds],
    queryFn: ({ signal }) => productTitles({ id: productIds, limit: productIds.length }, signal),
    enabled: productIds.length > 0,
  });
  return {
    types: types.data?.product_types ?? [],
    options: options.data?.shipping_options ?? [],
    products: Object.fromEntries((products.data?.products ?? []).map((p) => [p.id, p.title])),
  };
}

export function TaxRegionPage() {
  const { id } = useParams();
  const canWrite = useCanWrite();
  const navigate = useNavigate();
  const regions = useTaxRegions();
  const region = regions.data?.tax_regions.find((r) => r.id === id);
  const names = useTargetNames(region);
  const remove = useTaxWrite(
    () => api(`/admin/tax-regions/${id}`, { method: 'DELETE' }),
    'Tax region deleted',
    () => navigate('/settings/taxes', { replace: true }),
  );
  if (regions.isPending) return <Loading />;
  if (regions.isError) return <ErrorNote error={regions.error} />;
  if (!region) return <ErrorNote error={new Error('This tax region does not exist (any more).')} />;
  const provinces = regions.data.tax_regions.filter((r) => r.parent_id === region.id);
  const parent = regions.data.tax_regions.find((r) => r.id === region.parent_id);
  return (
    <>
      <Card
        title={`Tax region ${place(region)}`}
        actions={
          <>
            <Link className="btn" to="/settings/taxes">
              ← All tax regions
            </Link>
            {canWrite && (
              <ConfirmButton
                label="Delete tax region"
                title={`Delete ${place(region)}?`}
                body={
                  provinces.length
                    ? `Its ${provinces.length} province(s) and all rates go with it.`
                    : 'Its rates go with it; carts there are taxed at 0 from their next update.'
                }
                danger
                onConfirm={() => remove.mutate()}
              />
            )}
          </>
        }
      >
        <ErrorNote error={remove.error} />
        {parent && (
          <p>
            A province of <Link to={`/settings/taxes/${parent.id}`}>{place(parent)}</Link>: without a default rate of
            its own, the country’s applies.
          </p>
        )}
        {provinces.length > 0 && (
          <p>
            Provinces:{' '}
            {provinces.map((p, i) => (
              <span key={p.id}>
                {i > 0 && ', '}
                <Link to={`/settings/taxes/${p.id}`}>{place(p)}</Link>
              </span>
            ))}
          </p>
        )}
        <RatesTable rates={region.tax_rates} names={names} />
      </Card>
      <Card title="Tax provider">
        {/* Keyed by the saved provider, so a save (or another tab's) resets the choice to it. */}
        <ProviderForm key={region.provider_id ?? 'tp_system'} region={region} />
      </Card>
      {canWrite && !region.tax_rates.some((t) => t.is_default) && (
        <Card title="Set a default rate">
          <DefaultRateForm region={region} />
        </Card>
      )}
      {canWrite && (
        <Card title="Add an override rate">
          <p className="muted">
            An override replaces the default rate for the products, product types and shipping options it names.
          </p>
          <NewRateForm region={region} types={names.types} shippingOptions={names.options} />
        </Card>
      )}
    </>
  );
}
