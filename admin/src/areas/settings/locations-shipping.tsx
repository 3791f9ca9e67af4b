import { useState } from 'react';

import { useCanWrite } from '../../lib/session.tsx';
import { Card, Empty, ErrorNote, Field, Loading } from '../../components/ui.tsx';
import { LocationCard, LocationForm } from './location-card.tsx';
import { OptionTypesCard } from './option-types.tsx';
import { NameField, SubForm } from './shipping-form-parts.tsx';
import { AddDetails, DeleteButton } from './shipping-list-parts.tsx';
import {
  useShippingWrite,
  type Location,
  type OptionType,
  type Profile,
  type Provider,
  type Region,
  type ShippingOption,
  type ShippingRefs,
} from './shipping-write.ts';
import { useApi } from '../../lib/api-hooks.ts';

function ProfileForm() {
  const [name, setName] = useState('');
  const [type, setType] = useState('');
  const write = useShippingWrite(() => {
    setName('');
    setType('');
  });
  const submit = () =>
    write.mutate({
      path: '/admin/shipping-profiles',
      done: 'Shipping profile created',
      body: { name: name.trim(), type: type.trim() || 'default' },
    });
  return (
    <SubForm label="New shipping profile" write={write} onSubmit={submit} submit="Create profile">
      <div className="row">
        <NameField label="Profile name" value={name} onChange={(e) => setName(e.target.value)} error={write.error} />
        <Field
          label="Profile type"
          name="type"
          maxLength={100}
          value={type}
          onChange={(e) => setType(e.target.value)}
          error={write.error}
          hint="e.g. heavy, digital"
        />
      </div>
    </SubForm>
  );
}

function ProfilesCard({ profiles, canWrite }: { profiles: Profile[]; canWrite: boolean }) {
  const remove = useShippingWrite();
  return (
    <Card title="Shipping profiles">
      <ErrorNote error={remove.error} />
      <ul className="plain-list">
        {profiles.map((p) => (
          <li key={p.id}>
            {p.name} <span className="muted">({p.type})</span>
            {canWrite && p.id !== 'sp_default' && (
              <DeleteButton
                write={remove}
                path={`/admin/shipping-profiles/${p.id}`}
                done="Shipping profile deleted"
                title={`Delete the profile ${p.name}?`}
                body="Only a profile no option and no product uses can be deleted."
                confirmLabel="Delete profile"
              />
            )}
          </li>
        ))}
      </ul>
      {canWrite && (
        <AddDetails summary="Add a shipping profile">
          <ProfileForm />
        </AddDetails>
      )}
    </Card>
  );
}

/**
 * Settings → Locations & shipping: each location (with its address), its fulfilment sets, their
 * zones (countries and provinces) and options (flat prices per currency or region, conditional
 * prices on the item total), which providers ship from each location, the shipping profiles and
 * the shared option types; a writer creates, edits and deletes them.
 */
export function LocationsShippingPage() {
  const canWrite = useCanWrite();
  const locations = useApi<{ stock_locations: Location[] }>(
    ['/admin/stock-locations', 'fulfillment'],
    '/admin/stock-locations',
    { limit: 200, fields: '*fulfillment_sets,*sales_channels,*fulfillment_providers' },
  );
  const options = useApi<{ shipping_options: ShippingOption[] }>(
    ['/admin/shipping-options', 'all'],
    '/admin/shipping-options',
    { limit: 1000 },
  );
  const profiles = useApi<{ shipping_profiles: Profile[] }>(['/admin/shipping-profiles'], '/admin/shipping-profiles', {
    limit: 200,
  });
  const providers = useApi<{ fulfillment_providers: Provider[] }>(
    ['/admin/fulfillment-providers'],
    '/admin/fulfillment-providers',
    { limit: 100 },
  );
  const types = useApi<{ shipping_option_types: OptionType[] }>(
    ['/admin/shipping-option-types'],
    '/admin/shipping-option-types',
    { limit: 200 },
  );
  const regions = useApi<{ regions: Region[] }>(['/admin/regions', 'shipping'], '/admin/regions', { limit: 200 });
  const failed = locations.error ?? options.error ?? profiles.error ?? providers.error ?? regions.error ?? types.error;
  if (failed) return <ErrorNote error={failed} />;
  if (!locations.data || !options.data || !profiles.data || !providers.data || !regions.data || !types.data)
    return <Loading />;
  const allOptions = options.data.shipping_options;
  const refs: ShippingRefs = {
    options: allOptions,
    profiles: profiles.data.shipping_profiles,
    providers: providers.data.fulfillment_providers,
    regions: regions.data.regions,
    types: types.data.shipping_option_types,
    currencies: [
      ...new Set([
        ...regions.data.regions.map((r) => r.currency_code),
        ...allOptions.flatMap((o) => o.prices.map((p) => p.currency_code)),
      ]),
    ].sort(),
  };
  return (
    <>
      <ProfilesCard profiles={refs.profiles} canWrite={canWrite} />
      <OptionTypesCard types={refs.types} canWrite={canWrite} />
      {locations.data.stock_locations.length === 0 && <Empty>No stock locations yet.</Empty>}
      {locations.data.stock_locations.map((loc) => (
        <LocationCard key={loc.id} loc={loc} refs={refs} canWrite={canWrite} />
      ))}
      {canWrite && (
        <Card title="Add a stock location">
          <LocationForm />
        </Card>
      )}
    </>
  );
}
