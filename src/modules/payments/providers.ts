import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import type { Providers } from '../../platform/providers.ts';
import { getRegion, regionPaymentProviders } from '../regions/service.ts';
import { SYSTEM_PROVIDER } from './schema.ts';

/**
 * Which providers a region offers now: the ones its `payment_providers` name that are running
 * (a plugin that is uninstalled or disabled drops out at once); a region that names none offers
 * the built-in manual provider, as before any plugin existed.
 */
export async function offeredProviders(ctx: Ctx, regionId: string, providers: Providers): Promise<string[]> {
  return offeredOf(await regionPaymentProviders(ctx, regionId), providers);
}

/** The same rule for a region's `payment_providers` read elsewhere (checkout reads them with the cart). */
export function offeredOf(chosen: string[], providers: Providers): string[] {
  if (!chosen.length) return [SYSTEM_PROVIDER];
  return chosen.filter((id) => id === SYSTEM_PROVIDER || providers.payment.has(id));
}

/** `GET /store/payment-providers?region_id=`. */
export async function listPaymentProviders(ctx: Ctx, regionId: string, page: Page, providers: Providers) {
  if (!(await getRegion(ctx, regionId))) throw errors.notFound('store_region_not_found', { id: regionId });
  const all = (await offeredProviders(ctx, regionId, providers)).map((id) => ({ id, is_enabled: true }));
  return { payment_providers: all.slice(page.offset, page.offset + page.limit), count: all.length, ...page };
}

/** `GET /admin/payments/payment-providers`: every provider running in the shop, and which plugin runs it. */
export function listAllPaymentProviders(providers: Providers, page: Page) {
  const all = [
    { id: SYSTEM_PROVIDER, is_enabled: true, name: 'Manual payment', plugin: null as string | null },
    ...providers.payment.list().map((p) => ({ id: p.id, is_enabled: true, name: p.name, plugin: p.owner })),
  ];
  return { payment_providers: all.slice(page.offset, page.offset + page.limit), count: all.length, ...page };
}
