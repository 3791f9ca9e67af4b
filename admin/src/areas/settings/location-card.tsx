import { useState, type FormEvent } from 'react';
import { Badge, Card, ConfirmButton, Empty, ErrorNote, Field } from '../../components/ui.tsx';
import { LocationProviders } from './location-providers.tsx';
import { AddressFields, FormEnd, useFormValues } from './shipping-form-parts.tsx';
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
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = addressFrom(v);
    write.mutate({
      path: location ? `/admin/stock-locations/${location.id}` : '/admin/stock-locations',
      done: location ? 'Location saved' : 'Location created',
      body: { name: v.name.trim(), ...(address ? { address } : {}) },
    });
  };
  return (
    <form onSubmit={submit} aria-label={location ? `Edit ${location.name}` : 'New stock location'} className="subform">
      <div className="row">
        <Field
          label="Name"
          name="name"
          required
          maxLength={255}
          value={v.name}
          onChange={set('name')}
          error={write.error}
        />
        <AddressFields values={v} set={set} error={write.error} />
      </div>
      <FormEnd
        error={write.error}
        pending={write.isPending}
        submit={location ? 'Save location' : 'Create location'}
        onCancel={location ? onDone : undefined}
      />
    </form>
  );
}

function SetForm({ locationId }: { locationId: string }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<'shipping' | 'pickup'>('shipping');
  const write = useShippingWrite(() => setName(''));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    write.mutate({
      path: `/admin/stock-locations/${locationId}/fulfillment-sets`,
      done: 'Fulfilment set created',
      body: { name: name.trim(), type },
    });
  };
  return (
    <form onSubmit={submit} aria-label="New fulfilment set" className="subform">
      <div className="row">
        <Field
          label="Set name"
          name="name"
          required
          maxLength={255}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={write.error}
        />
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
      <FormEnd error={write.error} pending={write.isPending} submit="Create set" />
    </form>
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
            <button type="button" className="btn btn-small" onClick={() => setEditing(!editing)}>
              Edit location
            </button>
            <ConfirmButton
              small
              label="Delete location"
              danger
              title={`Delete ${loc.name}?`}
              body="Its stock levels, sets, zones and their options go with it. A location holding reserved stock cannot be deleted."
              confirmLabel="Delete location"
              disabled={remove.isPending}
              onConfirm={() =>
                remove.mutate({ path: `/admin/stock-locations/${loc.id}`, method: 'DELETE', done: 'Location deleted' })
              }
            />
          </>
        )
      }
    >
      <ErrorNote error={remove.error} />
      {editing && <LocationForm location={loc} onDone={() => setEditing(false)} />}
      <p className="muted">
        {addressLine(loc)} · Serves:{' '}
        {(loc.sales_channels ?? []).map((c) => c.name).join(', ') || 'every channel linked to no location'}
      </p>
      <LocationProviders loc={loc} refs={refs} canWrite={canWrite} />
      {sets.length === 0 && <Empty>No fulfilment sets.</Empty>}
      {sets.map((set) => (
        <section key={set.id} aria-label={`${set.name} (${set.type})`} className="fulfillment-set">
          <div className="zone-head">
            <h3>
              {set.name} <Badge value={set.type} />
            </h3>
            {canWrite && (
              <ConfirmButton
                small
                label="Delete set"
                danger
                title={`Delete the set ${set.name}?`}
                body="Its service zones and their shipping options go with it."
                confirmLabel="Delete set"
                disabled={remove.isPending}
                onConfirm={() =>
                  remove.mutate({ path: `/admin/fulfillment-sets/${set.id}`, method: 'DELETE', done: 'Set deleted' })
                }
              />
            )}
          </div>
          {set.service_zones.length === 0 && <Empty>No service zones.</Empty>}
          {set.service_zones.map((zone) => (
            <ZoneSection key={zone.id} setId={set.id} zone={zone} refs={refs} canWrite={canWrite} />
          ))}
          {canWrite && (
            <details className="add">
              <summary>Add a service zone to {set.name}</summary>
              <ZoneForm setId={set.id} />
            </details>
          )}
        </section>
      ))}
      {canWrite && (
        <details className="add">
          <summary>Add a fulfilment set to {loc.name}</summary>
          <SetForm locationId={loc.id} />
        </details>
      )}
    </Card>
  );
}
