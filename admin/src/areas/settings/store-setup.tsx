import { Link } from 'react-router';

import { money, toMinor } from '../../lib/format.ts';
import { Badge } from '../../components/ui.tsx';
import { ResourceTable } from './resource-table.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

type Channel = Item<Ok<'/admin/sales-channels'>['sales_channels']>;
type Region = Item<Ok<'/admin/regions'>['regions']>;
type ShippingOption = Item<Ok<'/admin/shipping-options'>['shipping_options']>;

export function ChannelsPage() {
  return (
    <ResourceTable<Channel>
      title="sales channel"
      path="/admin/sales-channels"
      plural="sales_channels"
      fields={[
        { name: 'name', label: 'Name', required: true },
        { name: 'description', label: 'Description' },
      ]}
      toBody={(v) => ({ name: v.name, description: v.description || null })}
      columns={[
        ['Name', (c) => c.name],
        ['Description', (c) => c.description ?? '—'],
        ['State', (c) => (c.is_disabled ? <Badge value="disabled" /> : <Badge value="active" />)],
      ]}
      describe={(c) => c.name}
    />
  );
}

export function RegionsPage() {
  return (
    <ResourceTable<Region>
      title="region"
      path="/admin/regions"
      plural="regions"
      fields={[
        { name: 'name', label: 'Name', required: true },
        { name: 'currency_code', label: 'Currency', required: true, hint: 'ISO 4217, e.g. eur' },
        { name: 'countries', label: 'Countries', hint: 'ISO 3166 codes, comma-separated: de, fr' },
      ]}
      toBody={(v) => ({
        name: v.name,
        currency_code: v.currency_code.trim().toLowerCase(),
        countries: v.countries
          .split(',')
          .map((c) => c.trim().toLowerCase())
          .filter(Boolean),
      })}
      columns={[
        ['Name', (r) => <Link to={`/settings/regions/${r.id}`}>{r.name}</Link>],
        ['Currency', (r) => r.currency_code.toUpperCase()],
        ['Countries', (r) => r.countries.map((c) => c.iso_2.toUpperCase()).join(', ') || '—'],
      ]}
      describe={(r) => r.name}
    />
  );
}

export function ShippingPage() {
  const regions = useApi<{ regions: Region[] }>(['/admin/regions'], '/admin/regions', { limit: 200 });
  const list = regions.data?.regions ?? [];
  const currencyOf = (id: string) => list.find((r) => r.id === id)?.currency_code ?? 'eur';
  if (!regions.data) return null;
  return (
    <ResourceTable<ShippingOption>
      title="shipping option"
      path="/admin/shipping-options"
      plural="shipping_options"
      fields={[
        { name: 'name', label: 'Name', required: true },
        {
          name: 'region_id',
          label: 'Region',
          required: true,
          options: list.map((r) => ({ value: r.id, label: `${r.name} (${r.currency_code.toUpperCase()})` })),
        },
        { name: 'amount', label: 'Flat rate', required: true, hint: 'in the region currency, e.g. 4.90' },
      ]}
      toBody={(v) => ({
        name: v.name,
        region_id: v.region_id,
        amount: toMinor(v.amount, currencyOf(v.region_id)) ?? -1,
      })}
      columns={[
        ['Name', (s) => s.name],
        ['Region', (s) => list.find((r) => r.id === s.region_id)?.name ?? s.region_id ?? 'zone option'],
        ['Rate', (s) => (s.region_id ? money(s.amount, currencyOf(s.region_id)) : `${s.prices.length} price(s)`)],
      ]}
      describe={(s) => s.name}
    />
  );
}
