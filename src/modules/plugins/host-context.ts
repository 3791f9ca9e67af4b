import type { FastifyBaseLogger } from 'fastify';
import type {
  EventHandler as SdkEventHandler,
  PluginContext,
  PluginLogger,
  RouteHandler,
} from '../../../plugin-sdk/index.ts';
import type { Clock } from '../../platform/clock.ts';
import { inTx } from '../../platform/context.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Providers } from '../../platform/providers.ts';
import type { EventHandler, SubscriberRegistry } from '../../platform/events/bus.ts';
import { emitCustom } from '../../platform/events/emit.ts';
import type { ConfigValue } from './config-values.ts';
import type { Registration } from './host.ts';
import { providerRegistrars } from './provider-registration.ts';
import { inPluginSchema } from './raw-db.ts';
import { assertPluginSql } from './sql-guard.ts';

/** Read APIs the app hands to plugins that declared them (app.ts wires them; plugins/ imports no domain module). */
export interface PluginReadApis {
  /** The order as `GET /admin/orders/{id}` shows it, or null when there is none. */
  retrieveOrder(id: string): Promise<(Record<string, unknown> & { id: string }) | null>;
}

export interface HostContextDeps {
  manifestId: string;
  version: string;
  schema: string;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  bus: SubscriberRegistry;
  providers: Providers;
  registration: Registration;
  readApis: PluginReadApis;
  /** Read at each access, so `ctx.config` shows the configuration saved last. */
  config: () => Readonly<Record<string, ConfigValue>>;
  stats: { eventErrors: number };
}

function pluginLogger(log: FastifyBaseLogger): PluginLogger {
  const at = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string, data?: Record<string, unknown>) =>
    log[level](data ?? {}, String(message));
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/**
 * What a plugin's ctx calls do in the shop (plugin-sdk PluginContext), served to its process by
 * serve-ctx.ts. Rights and names were decided before a call gets here, by sandbox/authorize.ts;
 * this performs them, checking only the values it needs (handlers, ids, payloads, SQL).
 */
export function createHostContext(deps: HostContextDeps): PluginContext {
  const { manifestId, registration: reg, bus } = deps;
  const log = deps.log.child({ plugin: manifestId });

  const on = (eventName: string, handler: SdkEventHandler) => {
    if (typeof handler !== 'function') throw new Error(`ctx.on(${eventName}): handler must be a function`);
    const wrapped: EventHandler = async (event) => {
      try {
        await handler({
          id: event.id,
          name: event.name,
          payload: event.payload as { id: string },
          created_at: event.created_at,
        });
      } catch (err) {
        deps.stats.eventErrors++;
        throw err; // the dispatcher logs it against this plugin (owner) and counts it
      }
    };
    if (reg.state === 'disposed')
      return log.warn({ event: eventName }, 'ctx.on after the plugin was unloaded; ignored');
    reg.subs.push({ pattern: eventName, handler: wrapped });
    if (reg.state === 'active') bus.on(eventName, wrapped, manifestId);
  };

  const route = (surface: 'admin' | 'store') => (method: string, path: string, handler: RouteHandler) => {
    reg[surface].add(method, path, handler);
  };

  return {
    ...providerRegistrars({
      manifestId,
      providers: deps.providers,
      staged: reg.providers,
      state: () => reg.state,
    }),
    plugin: { id: manifestId, version: deps.version },
    on,
    routes: { admin: route('admin'), store: route('store') },
    db: {
      query: async <T extends Record<string, unknown>>(text: string, params?: unknown[]) => {
        await assertPluginSql(text, deps.schema);
        return inPluginSchema(deps.database, deps.schema, (tx) => tx.query<T>(text, params ?? []));
      },
    },
    orders: {
      async retrieve(id: string) {
        if (typeof id !== 'string' || !id) throw new Error('ctx.orders.retrieve: id must be a non-empty string');
        return deps.readApis.retrieveOrder(id);
      },
    },
    get config() {
      return deps.config();
    },
    logger: pluginLogger(log),
    async emit(eventName, payload) {
      if (typeof payload !== 'object' || payload === null || typeof payload.id !== 'string')
        throw new Error('ctx.emit: payload must be an object with a string id');
      // Namespaced under the plugin's id, so a plugin can never forge a core event (order.placed…).
      await inTx({ db: deps.database.db, clock: deps.clock, log }, (tctx) =>
        emitCustom(tctx, `${manifestId}.${eventName}`, payload),
      );
    },
  };
}
