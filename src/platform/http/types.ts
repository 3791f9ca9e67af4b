import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Actor, Ctx } from '../context.ts';
import type { Database } from '../db/database.ts';
import type { Providers } from '../providers.ts';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What buildApp needs; wired by hand in main.ts and in the test harness. */
export interface AppDeps {
  database: Database;
  config: Config;
  clock: Clock;
  /** pino options or false; tests pass false to keep output readable. */
  logger?: boolean | Record<string, unknown>;
  /** The built admin panel served at /app (default: `admin/dist` of this checkout). */
  adminPanelDir?: string;
}

/** The publishable key a store request came with, and the sales channels it opens. */
export interface StoreScope {
  keyId: string;
  salesChannelIds: string[];
}

/**
 * What src/app.ts decorates every app and request with. Modules declare their own decorations
 * beside the code that owns them: `req.customer` in the customers module (customer-auth.ts),
 * `app.plugins` in the plugins module (app-decoration.ts).
 */
declare module 'fastify' {
  interface FastifyInstance {
    routeTable: { method: string; url: string }[];
    /** Payment and notification providers registered by the running plugins. */
    providers: Providers;
  }
  interface FastifyRequest {
    ctx: Ctx;
    actor: Actor | null;
    store: StoreScope | null;
  }
}

/** A module's route registration: `(app, deps) => …`, called inside the right surface scope. */
export type RouteModule = (app: App, deps: AppDeps) => Promise<void> | void;
