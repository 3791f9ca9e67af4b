/** The marketplace role's routes: the vendor side under /admin/marketplace, the federation surface under /store/marketplace. */
export { adminMarketplaceRoutes } from './admin.routes.ts';
export { storeMarketplaceRoutes } from './store.routes.ts';
