import type { RouteModule } from './platform/http/types.ts';
import { adminUserRoutes, authUserRoutes } from './modules/auth/routes.ts';
import { adminProductRoutes } from './modules/products/admin.routes.ts';
import { storeProductRoutes } from './modules/products/store.routes.ts';
import { adminRegionRoutes, storeRegionRoutes } from './modules/regions/routes.ts';
import { salesChannelRoutes } from './modules/sales-channels/routes.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { settingRoutes } from './modules/settings/routes.ts';
import { adminCustomerRoutes } from './modules/customers/admin.routes.ts';
import { storeCustomerRoutes } from './modules/customers/store.routes.ts';
import { customerAuthRoutes } from './modules/customers/auth.routes.ts';
import { sessionRoutes } from './modules/sessions/routes.ts';
import { adminWebhookRoutes } from './modules/webhooks/routes.ts';
import { checkoutAdminRoutes, checkoutStoreRoutes } from './modules/checkout/surface.ts';
import { orderDeskAdminRoutes, storeOrderRoutes } from './modules/orders/surface.ts';
import { adminMarketplaceRoutes, storeMarketplaceRoutes } from './modules/marketplace/routes.ts';
import { adminPluginRoutes, storePluginRoutes } from './modules/plugins/routes.ts';
import { adminFederationRoutes } from './modules/federation/routes.ts';
import { adminPaidPluginRoutes } from './modules/federation/paid.routes.ts';

/**
 * Every module's routes, by surface. app.ts mounts each list under its prefix with that
 * surface's guard (admin: bearer JWT or secret key; store: publishable key; auth: public).
 */
export const authRoutes: RouteModule[] = [authUserRoutes, customerAuthRoutes, sessionRoutes];

export const adminRoutes: RouteModule[] = [adminUserRoutes, adminRegionRoutes, salesChannelRoutes, apiKeyRoutes, adminProductRoutes, notificationRoutes, settingRoutes, adminCustomerRoutes, adminWebhookRoutes, adminMarketplaceRoutes, checkoutAdminRoutes, orderDeskAdminRoutes, adminPluginRoutes, adminFederationRoutes, adminPaidPluginRoutes];

export const storeRoutes: RouteModule[] = [storeRegionRoutes, storeProductRoutes, storeCustomerRoutes, storeMarketplaceRoutes, checkoutStoreRoutes, storeOrderRoutes, storePluginRoutes];
