/**
 * Emporium plugin SDK: the only types a plugin imports.
 *
 * A plugin is a `.tgz` package with `manifest.json` at its root and, optionally, a server entry
 * (ESM, runs in a process of its own: docs/plugin-sandbox.md) and an admin entry (ESM,
 * runs in the admin panel). The server entry default-exports a {@link Plugin}; the shop calls its `register(ctx)` when the plugin is
 * installed or the shop starts, and drops everything it registered when it is uninstalled,
 * updated or disabled, without a restart.
 *
 * @example
 * ```js
 * // server/index.js
 * export default {
 *   async register(ctx) {
 *     ctx.on('order.placed', async (event) => {
 *       await ctx.db.query('insert into seen_orders (order_id) values ($1)', [event.payload.id]);
 *     });
 *     ctx.routes.admin('GET', '/seen', async () => ({ orders: await ctx.db.query('select * from seen_orders') }));
 *     ctx.logger.info('ready', { apiKeySet: Boolean(ctx.config.api_key) });
 *   },
 * };
 * ```
 * The entry does not need to import anything at run time: `definePlugin` is an identity
 * function that only gives editors the types (`import { definePlugin } from '@emporium/plugin-sdk'`
 * in a bundled plugin, or a JSDoc `@type {import('@emporium/plugin-sdk').Plugin}` in plain JS).
 *
 * @packageDocumentation
 */

export type * from './context.ts';
export { definePlugin } from './context.ts';
export type * from './events.ts';
export type * from './json.ts';
export type * from './manifest.ts';
export type * from './notifications.ts';
export type * from './payments.ts';
export type * from './taxes.ts';
export type * from './fulfillments.ts';
export type { TestDatabase, TestHost, TestHostOptions, TestResponse } from './test-host.ts';
export { createTestHost } from './test-host.ts';
