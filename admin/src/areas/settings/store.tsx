import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useCan } from '../../lib/session.tsx';
import { Card, ErrorNote, Field, Loading } from '../../components/ui.tsx';
import { SubmitButton, namedChoices, SelectField, SubmitForm } from '../../components/form-pieces.tsx';
import { useApi } from '../../lib/api-hooks.ts';

interface Store {
  id: string;
  name: string;
  supported_currencies: { currency_code: string; is_default: boolean; is_tax_inclusive: boolean }[];
  default_sales_channel_id: string | null;
  default_region_id: string | null;
  default_location_id: string | null;
}

interface Named {
  id: string;
  name: string;
}

const list = <K extends string>(path: string, key: K) => ({
  queryKey: ['store-choices', key],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<Record<K, Named[]>>(path, { query: { limit: 100 }, signal }).then((d) => d[key]),
});

/** Settings → Store: the shop's name, its currencies (one default) and its default region, channel and location. */
export function StorePage() {
  const stores = useApi<{ stores: Store[] }>(['stores'], '/admin/stores');
  if (stores.isPending) return <Loading />;
  if (stores.isError) return <ErrorNote error={stores.error} />;
  const store = stores.data.stores[0];
  if (!store) return <ErrorNote error={new Error('No store')} />;
  return <StoreForm key={store.id} store={store} />;
}

function StoreForm({ store }: { store: Store }) {
  const canWrite = useCan('settings:write');
  const client = useQueryClient();
  const regions = useQuery(list('/admin/regions', 'regions'));
  const channels = useQuery(list('/admin/sales-channels', 'sales_channels'));
  const locations = useQuery(list('/admin/stock-locations', 'stock_locations'));
  const [name, setName] = useState(store.name);
  const [currencies, setCurrencies] = useState(store.supported_currencies.map((c) => c.currency_code).join(', '));
  const [defaultCurrency, setDefaultCurrency] = useState(
    store.supported_currencies.find((c) => c.is_default)?.currency_code ?? '',
  );
  const [region, setRegion] = useState(store.default_region_id ?? '');
  const [channel, setChannel] = useState(store.default_sales_channel_id ?? '');
  const [location, setLocation] = useState(store.default_location_id ?? '');
  const save = useMutation({
    mutationFn: () => {
      const codes = currencies
        .split(/[\s,]+/)
        .map((c) => c.trim().toLowerCase())
        .filter(Boolean);
      const fallback = codes[0];
      return api(`/admin/stores/${store.id}`, {
        method: 'POST',
        body: {
          name,
          supported_currencies: codes.map((code) => ({
            currency_code: code,
            is_default:
              code === (codes.includes(defaultCurrency.toLowerCase()) ? defaultCurrency.toLowerCase() : fallback),
          })),
          default_region_id: region || null,
          default_sales_channel_id: channel || null,
          default_location_id: location || null,
        },
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['stores'] }),
  });
  const select = (label: string, name: string, value: string, set: (v: string) => void, options?: Named[]) => (
    <SelectField
      label={label}
      name={name}
      value={value}
      disabled={!canWrite}
      onChange={set}
      none="None"
      choices={namedChoices(options)}
    />
  );
  return (
    <Card title="Store">
      <SubmitForm label="Store settings" onSubmit={() => save.mutate()}>
        <Field
          label="Name"
          name="name"
          required
          value={name}
          disabled={!canWrite}
          onChange={(e) => setName(e.target.value)}
          error={save.error}
        />
        <Field
          label="Currencies"
          name="supported_currencies"
          hint="ISO codes separated by commas, e.g. eur, usd"
          value={currencies}
          disabled={!canWrite}
          onChange={(e) => setCurrencies(e.target.value)}
          error={save.error}
        />
        <Field
          label="Default currency"
          name="default_currency"
          value={defaultCurrency}
          disabled={!canWrite}
          onChange={(e) => setDefaultCurrency(e.target.value)}
        />
        {select('Default region', 'default_region_id', region, setRegion, regions.data)}
        {select('Default sales channel', 'default_sales_channel_id', channel, setChannel, channels.data)}
        {select('Default stock location', 'default_location_id', location, setLocation, locations.data)}
        <ErrorNote error={save.error} skipField />
        {save.isSuccess && <p role="status">Saved.</p>}
        {canWrite && <SubmitButton pending={save.isPending}>Save</SubmitButton>}
      </SubmitForm>
    </Card>
  );
}
