import type { RouteModule } from './platform/http/types.ts';
import { authUserRoutes } from './modules/auth/routes.ts';
import { adminUserRoutes } from './modules/team/users.routes.ts';
import { adminRoleRoutes } from './modules/team/roles.routes.ts';
import { adminRbacRoutes } from './modules/team/rbac.routes.ts';
import { adminUserRoleRoutes } from './modules/team/user-roles.routes.ts';
import { tokenRefreshRoutes } from './modules/auth/refresh.routes.ts';
import { adminInviteRoutes } from './modules/team/invites.routes.ts';
import { adminStoreRoutes } from './modules/stores/routes.ts';
import { reissueUserClaims, userTokenIsCurrent } from './modules/auth/service.ts';
import { adminProductRoutes } from './modules/products/admin.routes.ts';
import { adminVariantRoutes } from './modules/products/variant.routes.ts';
import { adminOptionRoutes } from './modules/products/option.routes.ts';
import { storeProductRoutes } from './modules/products/store.routes.ts';
import { storeCatalogCompatRoutes } from './modules/products/store-compat.routes.ts';
import { adminRegionRoutes, storeRegionRoutes } from './modules/regions/routes.ts';
import { salesChannelRoutes } from './modules/sales-channels/routes.ts';
import { stockLocationRoutes } from './modules/stock-locations/routes.ts';
import { inventoryRoutes } from './modules/inventory/routes.ts';
import { reservationRoutes } from './modules/inventory/reservation.routes.ts';
import { apiKeyRoutes } from './modules/api-keys/routes.ts';
import { notificationRoutes } from './modules/notifications/routes.ts';
import { adminMessagingRoutes } from './modules/messaging/routes.ts';
import { settingRoutes } from './modules/settings/routes.ts';
import { adminCustomerRoutes } from './modules/customers/admin.routes.ts';
import { adminCustomerAddressRoutes } from './modules/customers/admin-address.routes.ts';
import { adminCustomerGroupRoutes } from './modules/customer-groups/routes.ts';
import { adminPriceListRoutes } from './modules/price-lists/routes.ts';
import { adminAuditRoutes } from './modules/audit/routes.ts';
import { storeCustomerRoutes } from './modules/customers/store.routes.ts';
import { storeAddressRoutes } from './modules/customers/address.routes.ts';
import { customerAuthRoutes } from './modules/customers/auth.routes.ts';
import { customerTokenIsCurrent, reissueCustomerClaims } from './modules/customers/auth-service.ts';
import { type CurrentTokenCheck, sessionRoutes } from './modules/sessions/routes.ts';
import { adminWebhookRoutes } from './modules/webhooks/routes.ts';
import { adminShippingOptionRoutes } from './modules/shipping-options/routes.ts';
import { adminShippingOptionTypeRoutes } from './modules/shipping-options/type.routes.ts';
import { fulfillmentRoutes } from './modules/fulfillment/routes.ts';
import { storeCartRoutes } from './modules/checkout/cart.routes.ts';
import { storeShippingOptionRoutes } from './modules/checkout/shipping-option.routes.ts';
import { storePaymentCollectionRoutes } from './modules/checkout/payment-collection.routes.ts';
import { paymentHookRoutes, storePaymentWebhookRoutes } from './modules/checkout/payment-webhook.routes.ts';
import { adminPaymentProviderRoutes, storePaymentProviderRoutes } from './modules/payments/store.routes.ts';
import { adminOrderRoutes } from './modules/orders/admin.routes.ts';
import { adminFulfillmentRoutes } from './modules/orders/fulfillment.routes.ts';
import { adminPaymentRoutes } from './modules/orders/payment.routes.ts';
import { storeOrderRoutes } from './modules/orders/store.routes.ts';
import { customerOrdersOf } from './modules/orders/listing.ts';
import { CustomerOrder } from './modules/orders/desk-schema.ts';
import { adminOrderChangeRoutes } from './modules/orders/changes/routes.ts';
import { adminReturnReasonRoutes, storeReturnReasonRoutes } from './modules/returns/reason.routes.ts';
import { adminReturnRoutes } from './modules/returns/admin.routes.ts';
import { storeReturnRoutes } from './modules/returns/store.routes.ts';
import { adminOrderEditRoutes } from './modules/order-edits/routes.ts';
import { adminClaimRoutes, adminExchangeRoutes } from './modules/exchanges/routes.ts';
import {
  adminDifferenceCollectionRoutes,
  storeDifferenceCollectionRoutes,
} from './modules/orders/difference-collection.routes.ts';
import { adminDraftOrderRoutes } from './modules/draft-orders/routes.ts';
import { adminOrderTransferRoutes, storeOrderTransferRoutes } from './modules/order-transfers/routes.ts';
import { adminMarketplaceRoutes, storeMarketplaceRoutes } from './modules/marketplace/entry.ts';
import { adminPluginRoutes, storePluginRoutes } from './modules/plugins/routes.ts';
import { adminFederationRoutes } from './modules/federation/routes.ts';
import { adminPaidPluginRoutes } from './modules/federation/paid.routes.ts';
import { dashboardRoutes } from './modules/dashboard/routes.ts';
import { adminLocaleRoutes, storeLocaleRoutes } from './modules/locales/routes.ts';
import { adminRefundReasonRoutes } from './modules/refund-reasons/routes.ts';
import { adminCollectionRoutes, storeCollectionRoutes } from './modules/collections/routes.ts';
import { adminCategoryRoutes, storeCategoryRoutes } from './modules/categories/routes.ts';
import { adminLabelRoutes, storeLabelRoutes } from './modules/product-labels/routes.ts';
import { adminUploadRoutes } from './modules/uploads/routes.ts';
import { adminTaxRoutes } from './modules/taxes/routes.ts';
import { adminPromotionRoutes } from './modules/promotions/routes.ts';
import { adminJobRoutes } from './modules/jobs/routes.ts';
import { customerBulkRoutes, inventoryBulkRoutes, orderBulkRoutes, productBulkRoutes } from './modules/bulk/routes.ts';

/**
 * Every module's routes, by surface. app.ts mounts each list under its prefix with that
 * surface's guard (admin: bearer JWT or secret key; store: publishable key; auth: public).
 * The shopper's flow (/store/carts/*, /store/shipping-options, /store/payment-collections/*)
 * is checkout's; the order desk (/admin/orders/*, /admin/payments/*) is the orders module's.
 */
/** `POST /auth/session` asks the token's own module whether a password reset revoked it. */
const tokenIsCurrent: CurrentTokenCheck = (ctx, claims) =>
  claims.actor_type === 'user' ? userTokenIsCurrent(ctx, claims) : customerTokenIsCurrent(ctx, claims);

/** `POST /auth/token/refresh` asks the token's own module for the claims a fresh token says. */
const refreshRoutes = tokenRefreshRoutes((ctx, claims) =>
  claims.actor_type === 'user' ? reissueUserClaims(ctx, claims) : reissueCustomerClaims(ctx, claims),
);

export const authRoutes: RouteModule[] = [
  authUserRoutes,
  customerAuthRoutes,
  sessionRoutes(tokenIsCurrent),
  refreshRoutes,
];

export const adminRoutes: RouteModule[] = [
  adminUserRoutes,
  adminRoleRoutes,
  adminRbacRoutes,
  adminUserRoleRoutes,
  adminInviteRoutes,
  adminStoreRoutes,
  adminRegionRoutes,
  salesChannelRoutes,
  stockLocationRoutes,
  inventoryRoutes,
  reservationRoutes,
  apiKeyRoutes,
  productBulkRoutes,
  adminProductRoutes,
  adminVariantRoutes,
  adminOptionRoutes,
  adminCollectionRoutes,
  adminCategoryRoutes,
  adminLabelRoutes,
  adminUploadRoutes,
  notificationRoutes,
  adminMessagingRoutes,
  settingRoutes,
  adminCustomerRoutes,
  adminCustomerAddressRoutes,
  adminCustomerGroupRoutes,
  adminPriceListRoutes,
  adminAuditRoutes,
  adminWebhookRoutes,
  adminMarketplaceRoutes,
  adminShippingOptionRoutes,
  adminShippingOptionTypeRoutes,
  fulfillmentRoutes,
  adminTaxRoutes,
  adminPromotionRoutes,
  adminOrderRoutes,
  adminFulfillmentRoutes,
  adminOrderChangeRoutes,
  adminReturnReasonRoutes,
  adminReturnRoutes,
  adminOrderEditRoutes,
  adminDifferenceCollectionRoutes,
  adminExchangeRoutes,
  adminClaimRoutes,
  adminDraftOrderRoutes,
  adminOrderTransferRoutes,
  adminPaymentProviderRoutes,
  adminPaymentRoutes,
  adminRefundReasonRoutes,
  adminLocaleRoutes,
  adminPluginRoutes,
  adminFederationRoutes,
  adminPaidPluginRoutes,
  dashboardRoutes,
  adminJobRoutes,
  orderBulkRoutes,
  customerBulkRoutes,
  inventoryBulkRoutes,
];

export const storeRoutes: RouteModule[] = [
  storeRegionRoutes,
  storeProductRoutes,
  storeCatalogCompatRoutes,
  storeCollectionRoutes,
  storeCategoryRoutes,
  storeLabelRoutes,
  storeCustomerRoutes({ read: customerOrdersOf, schema: CustomerOrder }),
  storeAddressRoutes,
  storeMarketplaceRoutes,
  storeCartRoutes,
  storeShippingOptionRoutes,
  storePaymentProviderRoutes,
  storePaymentCollectionRoutes,
  storeDifferenceCollectionRoutes,
  storePaymentWebhookRoutes,
  storeOrderRoutes,
  storeOrderTransferRoutes,
  storeReturnReasonRoutes,
  storeReturnRoutes,
  storeLocaleRoutes,
  storePluginRoutes,
];

/** `/hooks/*`: inbound calls from third parties that carry their own signature (payment processors). */
export const hookRoutes: RouteModule[] = [paymentHookRoutes];
