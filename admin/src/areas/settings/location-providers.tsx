import { useState, type FormEvent } from 'react';
import { Field } from '../../components/ui.tsx';
import { FormEnd } from './shipping-form-parts.tsx';
import { useShippingWrite, type Location, type ShippingRefs } from './shipping-write.ts';

/**
 * Which fulfilment providers ship from a location (Medusa's location ↔ provider link). A location
 * linked to none takes every provider (so shops from before the links keep working); once linked,
 * its zones' options must use a linked provider. A writer ticks the providers and saves: the
 * difference is sent as one `add` / `remove`.
 */
export function LocationProviders({
  loc,
  refs,
  canWrite,
}: {
  loc: Location;
  refs: Pick<ShippingRefs, 'providers'>;
  canWrite: boolean;
}) {
  const linked = (loc.fulfillment_providers ?? []).map((p) => p.id);
  const [editing, setEditing] = useState(false);
  const [ticked, setTicked] = useState<string[]>(linked);
  const write = useShippingWrite(() => setEditing(false));
  const name = (id: string) => refs.providers.find((p) => p.id === id)?.name ?? id;
  const start = () => {
    setTicked(linked);
    setEditing(true);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    write.mutate({
      path: `/admin/stock-locations/${loc.id}/fulfillment-providers`,
      done: 'Providers saved',
      body: {
        add: ticked.filter((id) => !linked.includes(id)),
        remove: linked.filter((id) => !ticked.includes(id)),
      },
    });
  };
  return (
    <section aria-label={`Fulfilment providers of ${loc.name}`} className="location-providers">
      <p className="muted">
        Ships with: {linked.length ? linked.map(name).join(', ') : 'every provider (none linked)'}{' '}
        {canWrite && !editing && (
          <button type="button" className="btn btn-small" onClick={start}>
            Choose providers
          </button>
        )}
      </p>
      {editing && (
        <form onSubmit={submit} aria-label={`Providers of ${loc.name}`} className="subform">
          <div className="row">
            {refs.providers.map((p) => (
              <Field
                key={p.id}
                label={p.name}
                name={`provider.${p.id}`}
                type="checkbox"
                checked={ticked.includes(p.id)}
                onChange={(e) => setTicked(e.target.checked ? [...ticked, p.id] : ticked.filter((id) => id !== p.id))}
              />
            ))}
          </div>
          <small className="hint">None ticked: every provider ships from {loc.name}.</small>
          <FormEnd
            error={write.error}
            pending={write.isPending}
            submit="Save providers"
            onCancel={() => setEditing(false)}
          />
        </form>
      )}
    </section>
  );
}
