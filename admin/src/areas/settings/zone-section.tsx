import { useState } from 'react';
import { money } from '../../lib/format.ts';
import { Badge, Empty, ErrorNote } from '../../components/ui.tsx';
import { OptionForm } from './option-form.tsx';
import { GeoListFields, NameField, SubForm, useFormValues } from './shipping-form-parts.tsx';
import { AddDetails, DeleteButton, EditButton, useEditing } from './shipping-list-parts.tsx';
import { OPERATOR_SIGNS, geoLists, geoZonesFrom, type GeoIn } from './shipping-forms.ts';
import { useShippingWrite, type Geo, type Price, type ShippingRefs, type Zone } from './shipping-write.ts';

/** "DE", "DE › de-hh", "DE › de-hh › Hamburg", "DE › … › 20095". */
export function geoLabel(g: Geo): string {
  const parts = [g.country_code.toUpperCase(), g.province_code, g.city];
  if (g.type === 'zip') parts.push(String(g.postal_expression));
  return parts.filter(Boolean).join(' › ');
}

function priceLabel(p: Price, regionName: (id: string) => string): string {
  const conditions = p.price_rules.map(
    (r) => `item total ${OPERATOR_SIGNS[r.operator] ?? r.operator} ${money(Number(r.value), p.currency_code)}`,
  );
  return `${money(p.amount, p.currency_code)}${conditions.length ? ` if ${conditions.join(' and ')}` : ''}${p.region_id ? ` (${regionName(p.region_id)})` : ''}`;
}

/**
 * A zone's name and its geo zones as two lists: countries (`de, at`) and provinces by their
 * ISO 3166-2 code (`de-by`). Cities and postal codes made through the API are kept.
 */
export function ZoneForm({ setId, zone, onDone }: { setId: string; zone?: Zone; onDone?: () => void }) {
  const form = useFormValues(() => ({ name: zone?.name ?? '', ...geoLists((zone?.geo_zones ?? []) as GeoIn[]) }));
  const { values: v, set } = form;
  const write = useShippingWrite(() => {
    if (!zone) form.clear();
    onDone?.();
  });
  const submit = () =>
    write.mutate({
      path: `/admin/fulfillment-sets/${setId}/service-zones${zone ? `/${zone.id}` : ''}`,
      done: zone ? 'Service zone saved' : 'Service zone created',
      body: () => ({
        name: v.name.trim(),
        geo_zones: geoZonesFrom(v.countries, v.provinces, (zone?.geo_zones ?? []) as GeoIn[]),
      }),
    });
  return (
    <SubForm
      label={zone ? `Edit zone ${zone.name}` : 'New service zone'}
      write={write}
      onSubmit={submit}
      submit={zone ? 'Save zone' : 'Create zone'}
      onCancel={zone ? onDone : undefined}
    >
      <div className="row">
        <NameField label="Zone name" value={v.name} onChange={set('name')} error={write.error} />
        <GeoListFields countries={v.countries} provinces={v.provinces} set={set} error={write.error} />
      </div>
    </SubForm>
  );
}

/** A service zone: its geo zones, its options with their prices and conditions, and (to a writer) their editing. */
export function ZoneSection({
  setId,
  zone,
  refs,
  canWrite,
}: {
  setId: string;
  zone: Zone;
  refs: ShippingRefs;
  canWrite: boolean;
}) {
  const [editingZone, setEditingZone] = useState(false);
  const remove = useShippingWrite();
  const mine = refs.options.filter((o) => o.service_zone_id === zone.id);
  const editing = useEditing(mine);
  const profileName = (id: string) => refs.profiles.find((p) => p.id === id)?.name ?? id;
  const providerName = (id: string) => refs.providers.find((p) => p.id === id)?.name ?? id;
  const regionName = (id: string) => refs.regions.find((r) => r.id === id)?.name ?? 'region';
  return (
    <div className="zone">
      <div className="zone-head">
        <h4>
          {zone.name} <span className="muted">— {zone.geo_zones.map(geoLabel).join(', ') || 'no geo zones'}</span>
        </h4>
        {canWrite && (
          <div className="actions">
            <EditButton label="Edit zone" onClick={() => setEditingZone(!editingZone)} />
            <DeleteButton
              write={remove}
              path={`/admin/fulfillment-sets/${setId}/service-zones/${zone.id}`}
              done="Service zone deleted"
              label="Delete zone"
              title={`Delete the zone ${zone.name}?`}
              body="Its shipping options go with it; carts that chose one must choose again."
              confirmLabel="Delete zone"
            />
          </div>
        )}
      </div>
      <ErrorNote error={remove.error} />
      {editingZone && <ZoneForm setId={setId} zone={zone} onDone={() => setEditingZone(false)} />}
      {mine.length === 0 ? (
        <Empty>No shipping options in this zone.</Empty>
      ) : (
        <div className="table-wrap">
          <table aria-label={`Shipping options of ${zone.name}`}>
            <thead>
              <tr>
                <th>Option</th>
                <th>Profile</th>
                <th>Provider</th>
                <th>Prices</th>
                {canWrite && <th aria-label="Actions" />}
              </tr>
            </thead>
            <tbody>
              {mine.map((o) => (
                <tr key={o.id}>
                  <td>
                    {o.name}
                    {o.rules.some((r) => r.attribute === 'is_return' && r.value === 'true') && (
                      <Badge value="info">return</Badge>
                    )}
                    {o.rules.some((r) => r.attribute === 'enabled_in_store' && r.value === 'false') && (
                      <Badge value="muted">hidden</Badge>
                    )}
                  </td>
                  <td>{profileName(o.shipping_profile_id)}</td>
                  <td>{providerName(o.provider_id)}</td>
                  <td>
                    {o.price_type === 'calculated' ? (
                      <Badge value="calculated">calculated by the provider</Badge>
                    ) : (
                      o.prices.map((p) => <div key={p.id}>{priceLabel(p, regionName)}</div>)
                    )}
                  </td>
                  {canWrite && (
                    <td>
                      <div className="actions">
                        <EditButton name={`Edit ${o.name}`} onClick={() => editing.toggle(o.id)} />
                        <DeleteButton
                          write={remove}
                          path={`/admin/shipping-options/${o.id}`}
                          done="Shipping option deleted"
                          title={`Delete the option ${o.name}?`}
                          body="Carts that chose it must choose again before they complete."
                          confirmLabel="Delete option"
                        />
                      </div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing.edited && (
        <OptionForm
          key={editing.edited.id}
          zoneId={zone.id}
          option={editing.edited}
          refs={refs}
          onDone={editing.done}
        />
      )}
      {canWrite && (
        <AddDetails summary={`Add a shipping option to ${zone.name}`}>
          <OptionForm zoneId={zone.id} refs={refs} />
        </AddDetails>
      )}
    </div>
  );
}
