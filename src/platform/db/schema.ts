/** Every table, for drizzle-kit (migrations) and the typed database handle. */
export * from '../events/tables.ts';
export * from '../../modules/auth/tables.ts';
export * from '../../modules/sales-channels/tables.ts';
export * from '../../modules/api-keys/tables.ts';
export * from '../../modules/regions/tables.ts';
export * from '../../modules/products/tables.ts';
export * from '../../modules/notifications/tables.ts';
export * from '../../modules/settings/tables.ts';
export * from '../../modules/customers/tables.ts';
export * from '../../modules/sessions/tables.ts';
export * from '../../modules/webhooks/tables.ts';
export * from '../../modules/marketplace/tables.ts';
export * from '../../modules/carts/tables.ts';
export * from '../../modules/shipping-options/tables.ts';
export * from '../../modules/payments/tables.ts';
export * from '../../modules/orders/tables.ts';
