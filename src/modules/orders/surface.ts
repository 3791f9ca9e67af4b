import type { RouteModule } from '../../platform/http/types.ts';
import { adminPaymentRoutes } from '../payments/admin.routes.ts';
import { adminOrderRoutes } from './admin.routes.ts';
import { storeOrderRoutes } from './store.routes.ts';

/** The order desk (orders and their payments) and the customer's order history, as src/routes.ts mounts them. */
export const orderDeskAdminRoutes: RouteModule = async (app, deps) => {
  for (const register of [adminOrderRoutes, adminPaymentRoutes]) await register(app, deps);
};

export { storeOrderRoutes };
