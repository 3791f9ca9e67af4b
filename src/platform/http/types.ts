import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Actor, Ctx } from '../context.ts';
import type { Database } from '../db/database.ts';
import type { StoreCustomer } from '../../modules/customers/customer-auth.ts';
import type { PluginHost } from '../../modules/plugins/host.ts';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What buildApp needs; wired by hand in main.ts and in the test harness. */
export interface AppDeps {
  database: Database;
  config: Config;
  clock: Clock;
  /** pino options or false; tests pass false to keep output readable. */
  logger?: boolean | Record<string, unknown>;
}

/** The publishable key a store request came with, and the sales channels it opens. */
export interface StoreScope {
  keyId: string;
  salesChannelIds: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: { method: string; url: string }[];
    /** This instance's running plugins (routers looked up per request, subscribers on its bus). */
    plugins: PluginHost;
  }
  interface FastifyRequest {
    ctx: Ctx;
    actor: Actor | null;
    store: StoreScope | null;
    /** The signed-in customer on /store routes (see modules/customers/customer-auth.ts). */
    customer: StoreCustomer | null;
  }
}

/** A module's route registration: `(app, deps) => …`, called inside the right surface scope. */
export type RouteModule = (app: App, deps: AppDeps) => Promise<void> | void;
