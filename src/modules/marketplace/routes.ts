import multipart from '@fastify/multipart';
import type { App, RouteModule } from '../../platform/http/types.ts';
import { registerCatalogAdminRoutes } from './catalog/admin.routes.ts';
import { registerFeedRoutes } from './catalog/store.routes.ts';
import { MULTIPART_LIMITS } from './catalog/upload.ts';
import { registerDownloadRoutes } from './downloads/routes.ts';
import { registerKeyRoutes } from './keys/routes.ts';
import { registerLicenseAdminRoutes } from './licenses/admin.routes.ts';
import { registerLicenseVerifyRoute } from './licenses/store.routes.ts';
import { registerLogRoutes } from './log/routes.ts';
import { registerReviewAdminRoutes, registerReviewStoreRoutes } from './ratings/routes.ts';
import { marketplaceRateLimit } from './rate-limit.ts';
import { registerRevocationAdminRoutes, registerRevocationListRoute } from './revocations/routes.ts';
import { registerPayoutRoutes } from './payouts/routes.ts';
import { registerSalesAdminRoutes } from './sales/admin.routes.ts';
import { registerSalesRoutes } from './sales/routes.ts';
import { registerVendorAdminRoutes, registerVendorStoreRoutes } from './vendors/routes.ts';

/**
 * The marketplace role's routes; a shop serves none of them. Each sub-folder registers its own
 * paths (the URL's first segment after /marketplace names the folder), inside the two scopes here.
 */

/**
 * The vendor side under /admin/marketplace: the catalog (publish, list, edit, unpublish), the license
 * desk and the checkout sessions.
 */
export const adminMarketplaceRoutes: RouteModule = async (app, deps) => {
  if (deps.config.role !== 'marketplace') return;
  await app.register(
    async (scope: App) => {
      await scope.register(multipart, { limits: MULTIPART_LIMITS });
      registerCatalogAdminRoutes(scope, deps);
      registerLicenseAdminRoutes(scope);
      registerSalesAdminRoutes(scope, deps);
      registerPayoutRoutes(scope, deps);
      registerVendorAdminRoutes(scope, deps);
      registerRevocationAdminRoutes(scope);
      registerReviewAdminRoutes(scope);
    },
    { prefix: '/marketplace' },
  );
};

/**
 * The public federation surface under /store/marketplace (no publishable key: the store guard
 * lets it through), behind the per-IP rate limit: feed, keys, downloads, checkout, license verify.
 */
export const storeMarketplaceRoutes: RouteModule = async (app, deps) => {
  if (deps.config.role !== 'marketplace') return;
  await app.register(
    async (scope: App) => {
      scope.addHook('onRequest', marketplaceRateLimit(scope, deps));
      registerFeedRoutes(scope, deps);
      registerKeyRoutes(scope);
      registerDownloadRoutes(scope, deps);
      registerLicenseVerifyRoute(scope, deps);
      registerVendorStoreRoutes(scope, deps);
      registerRevocationListRoute(scope, deps);
      registerLogRoutes(scope, deps);
      registerReviewStoreRoutes(scope);
      await registerSalesRoutes(scope, deps);
    },
    { prefix: '/marketplace' },
  );
};
