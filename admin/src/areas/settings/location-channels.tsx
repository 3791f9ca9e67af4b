import { ErrorNote, Field } from '../../components/ui.tsx';
import { useApi } from '../../lib/api-hooks.ts';
import { useSavedTicks } from '../../lib/saved-ticks.ts';
import type { Ok } from '../../api/types.ts';
import { useShippingWrite, type Location } from './shipping-write.ts';

/**
 * Which sales channels a location serves (Medusa's location ↔ channel link): checkout reserves a
 * cart's items only at locations serving its channel, and the store counts their stock. A location
 * serving none serves the channels linked to no location. A writer ticks a channel and it is saved
 * at once (`add` / `remove`); the box shows the click until the save settled (lib/saved-ticks.ts).
 */
export function LocationChannels({ loc, canWrite }: { loc: Location; canWrite: boolean }) {
  const channels = useApi<Ok<'/admin/sales-channels'>>(['sales-channels', 'all'], '/admin/sales-channels', {
    limit: 100,
  });
  const write = useShippingWrite();
  const ticks = useSavedTicks();
  const served = loc.sales_channels ?? [];
  const serves = (id: string) => served.some((c) => c.id === id);
  return (
    <section aria-label={`Sales channels of ${loc.name}`} className="location-channels">
      <p className="muted">
        Serves: {served.map((c) => c.name).join(', ') || 'the channels linked to no location (none linked)'}
      </p>
      {canWrite && (
        <fieldset className="group-picks" aria-label={`Sales channels ${loc.name} serves`}>
          <ErrorNote error={channels.error ?? write.error} />
          {channels.data?.sales_channels.map((c) => (
            <Field
              key={c.id}
              label={c.name}
              name={`channel-${loc.id}-${c.id}`}
              type="checkbox"
              checked={ticks.shown(c.id, serves(c.id))}
              disabled={ticks.pending(c.id)}
              aria-busy={ticks.pending(c.id)}
              onChange={(e) => {
                const checked = e.target.checked;
                ticks.tick(c.id, checked, () =>
                  write.mutateAsync({
                    path: `/admin/stock-locations/${loc.id}/sales-channels`,
                    done: checked ? `${loc.name} serves ${c.name}` : `${loc.name} no longer serves ${c.name}`,
                    body: checked ? { add: [c.id] } : { remove: [c.id] },
                  }),
                );
              }}
            />
          ))}
        </fieldset>
      )}
    </section>
  );
}
