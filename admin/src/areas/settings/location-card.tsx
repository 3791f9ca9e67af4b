import { useState } from 'react';
import { Badge, Card, Empty, ErrorNote, Field } from '../../components/ui.tsx';
import { LocationChannels } from './location-channels.tsx';
import { LocationProviders } from './location-providers.tsx';
import { AddressFields, NameField, SubForm, useFormValues } from './shipping-form-parts.tsx';
import { AddDetails, DeleteButton, EditButton } from './shipping-list-parts.tsx';
import { addressFrom } from './shipping-forms.ts';
import { ZoneForm, ZoneSection } from './zone-section.tsx';
import { useShippingWrite, type Location, type ShippingRefs } from './shipping-write.ts';

function addressLine(loc: Location): string {
  const a = loc.address;
  if (!a) return 'No address';
  return [a.address_1, [a.postal_code, a.city].filter(Boolean).join(' '), a.country_code.toUpperCase()]
    .filter(Boolean)
    .join(', ');
}

/** A location's name and address (the address is optional; when given, street and country are needed). */
export function LocationForm({ location, onDone }: { location?: Location; onDone?: () => void }) {
  const form = useFormValues(() => ({
    name: location?.name ?? '',
    address_1: location?.address?.address_1 ?? '',
    postal_code: location?.address?.postal_code ?? '',
    city: location?.address?.city ?? '',
    country_code: location?.address?.country_code ?? '',
  }));
  const { values: v, set } = form;
  const write = useShippingWrite(() => {
    if (!location) form.clear();
    onDone?.();
  });
  const submit = () => {
    const address = addressFrom(v);
    write.mutate({
      path: location ? `/admin/stock-locations/${location.id}` : '/admin/stock-locations',
      done: location ? 'Location saved' : 'Location created',
      body: { name: v.name.trim(), ...(address ? { address } : {}) },
    });
  };
  return (
    <SubForm
      label={location ? `Edit ${location.name}` : 'New stock location'}
      write={write}
      onSubmit={submit}
      submit={location ? 'Save location' : 'Create location'}
      onCancel={location ? onDone : undefined}
    >
      <div className="row">
        <NameField label="Name" value={v.name} onChange={set('name')} error={write.error} />
        <AddressFields values={v} set={set} error={write.error} />
      </div>
    </SubForm>
  );
}

function SetForm({ locationId }: { locationId: string }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<'shipping' | 'pickup'>('shipping');
  const write = useShippingWrite(() => setName(''));
  const submit = () =>
    write.mutate({
      path: `/admin/stock-locations/${locationId}/fulfillment-sets`,
      done: 'Fulfilment set created',
      body: { name: name.trim(), type },
    });
  return (
    <SubForm label="New fulfilment set" write={write} onSubmit={submit} submit="Create set">
      <div className="row">
        <NameField label="Set name" value={name} onChange={(e) => setName(e.target.value)} error={write.error} />
        <Field
          as="select"
          label="Type"
          name="type"
          value={type}
          onChange={(e) => setType(e.target.value as 'shipping' | 'pickup')}
          error={write.error}
        >
          <option value="shipping">Shipping</option>
          <option value="pickup">Pickup</option>
        </Field>
      </div>
    </SubForm>
  );
}

/** A stock location: address, channels it serves, its fulfilment sets with their zones and options. */
export function LocationCard({ loc, refs, canWrite }: { loc: Location; refs: ShippingRefs; canWrite: boolean }) {
  const [editing, setEditing] = useState(false);
  const remove = useShippingWrite();
  const sets = loc.fulfillment_sets ?? [];
  return (
    <Card
      title={loc.name}
      actions={
        canWrite && (
          <>
            <EditButton label="Edit location" onClick={() => setEditing(!editing)} />
            <DeleteButton
              write={remove}
              path={`/admin/stock-locations/${loc.id}`}
              done="Location deleted"
              label="Delete location"
              title={`Delete ${loc.name}?`}
              body="Its stock levels, sets, zones and their options go with it. A location holding reserved stock cannot be deleted."
              confirmLabel="Delete location"
            />
          </>
        )
      }
    >
      <ErrorNote error={remove.error} />
      {editing && <LocationForm location={loc} onDone={() => setEditing(false)} />}
      <p className="muted">{addressLine(loc)}</p>
      <LocationChannels loc={loc} canWrite={canWrite} />
      <LocationProviders loc={loc} refs={refs} canWrite={canWrite} />
      {sets.length === 0 && <Empty>No fulfilment sets.</Empty>}
      {sets.map((set) => (
        <section key={set.id} aria-label={`${set.name} (${set.type})`} className="fulfillment-set">
          <div className="zone-head">
            <h3>
              {set.name} <Badge value={set.type} />
            </h3>
            {canWrite && (
              <DeleteButton
                write={remove}
                path={`/admin/fulfillment-sets/${set.id}`}
                done="Set deleted"
                label="Delete set"
                title={`Delete the set ${set.name}?`}
                body="Its service zones and their shipping options go with it."
                confirmLabel="Delete set"
              />
            )}
          </div>
          {set.service_zones.length === 0 && <Empty>No service zones.</Empty>}
          {set.service_zones.map((zone) => (
            <ZoneSection key={zone.id} setId={set.id} zone={zone} refs={refs} canWrite={canWrite} />
          ))}
          {canWrite && (
            <AddDetails summary={`Add a service zone to ${set.name}`}>
              <ZoneForm setId={set.id} />
            </AddDetails>
          )}
        </section>
      ))}
      {canWrite && (
        <AddDetails summary={`Add a fulfilment set to ${loc.name}`}>
          <SetForm locationId={loc.id} />
        </AddDetails>
      )}
    </Card>
  );
}
