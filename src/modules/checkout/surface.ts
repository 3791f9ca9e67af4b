import type { RouteModule } from '../../platform/http/types.ts';
import { storeCartRoutes } from '../carts/routes.ts';
import { storePaymentRoutes } from '../payments/routes.ts';
import { adminShippingOptionRoutes, storeShippingOptionRoutes } from '../shipping-options/routes.ts';
import { storeCheckoutRoutes } from './routes.ts';

/** The shopper's path (carts, shipping, payment, completion) and its admin side, as src/routes.ts mounts them. */
export const checkoutStoreRoutes: RouteModule = async (app, deps) => {
  for (const register of [storeCartRoutes, storeShippingOptionRoutes, storePaymentRoutes, storeCheckoutRoutes]) await register(app, deps);
};

export const checkoutAdminRoutes: RouteModule = adminShippingOptionRoutes;
