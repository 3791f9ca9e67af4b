import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Providers } from '../../platform/providers.ts';
import { providerExists } from '../fulfillment/providers.ts';
import { findLiveLocation, linkProviders, providersOfLocations, unlinkProviders } from './queries.ts';

/**
 * Which fulfilment providers ship from a location (`POST /admin/stock-locations/{id}/fulfillment-providers
 * { add, remove }`, Medusa's link). A location linked to none is served by every provider; once
 * linked, the shipping options of its zones must use a linked one (checked when an option is
 * written). Every provider to add must be one that runs now, or nothing changes.
 */
export function linkLocationProviders(
  ctx: Ctx,
  id: string,
  input: { add?: string[]; remove?: string[] },
  providers: Providers,
): Promise<void> {
  const add = [...new Set(input.add ?? [])].sort();
  const remove = [...new Set(input.remove ?? [])].sort();
  return inTx(ctx, async ({ tx, clock }) => {
    if (!(await findLiveLocation(tx, id, true))) throw errors.notFound('fulfillment_location_not_found', { id });
    const unknown = add.find((p) => !providerExists(providers, p));
    if (unknown)
      throw errors.invalid('shipping_option_reference_missing', { what: 'Fulfillment provider', id: unknown });
    await linkProviders(tx, id, add, clock.now());
    await unlinkProviders(tx, id, remove);
  });
}

/** `fields=*fulfillment_providers`: each location's linked providers, as Medusa shows them. */
export async function withProviders<T extends { id: string }>(
  db: Executor,
  locations: T[],
): Promise<(T & { fulfillment_providers: { id: string; is_enabled: boolean }[] })[]> {
  const links = await providersOfLocations(
    db,
    locations.map((l) => l.id),
  );
  return locations.map((l) => ({
    ...l,
    fulfillment_providers: links
      .filter((x) => x.stock_location_id === l.id)
      .map((x) => ({ id: x.provider_id, is_enabled: true })),
  }));
}
