import type { RouteModule } from '../../platform/http/types.ts';
import { adminResource } from '../../platform/http/permissions.ts';

/**
 * What src/routes.ts mounts: the marketplace role's routes (routes.ts), imported only on a
 * marketplace, so a shop never spends start-up time loading that code (uploads, licenses, sales).
 */
export const adminMarketplaceRoutes: RouteModule = adminResource('marketplace', async (app, deps) => {
  if (deps.config.role !== 'marketplace') return;
  await (await import('./routes.ts')).adminMarketplaceRoutes(app, deps);
});

export const storeMarketplaceRoutes: RouteModule = async (app, deps) => {
  if (deps.config.role !== 'marketplace') return;
  await (await import('./routes.ts')).storeMarketplaceRoutes(app, deps);
};
