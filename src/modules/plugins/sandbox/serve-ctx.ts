import type { PluginContext, PluginLogger, PluginRequest } from '../../../../plugin-sdk/index.ts';
import { authorize, type Capability, type PluginIdentity } from './authorize.ts';
import type { PluginProcess } from './plugin-process.ts';
import type { CtxCalls, UntrustedCtx } from './protocol.ts';

/** A route answer the plugin's process already serialized: sent as is. */
export class SerializedJson {
  constructor(readonly text: string) {}
}

export interface CtxServerDeps {
  plugin: PluginIdentity;
  /** The host context (host-context.ts): the same checks and effects as for an in-process plugin. */
  ctx: PluginContext;
  proc: () => PluginProcess;
  timeouts: { routeMs: number; eventMs: number; providerMs: number };
  /** Registrations the host refused (bad path, taken provider id…): a load fails with the first one. */
  refused: string[];
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
const str = (v: unknown) => (typeof v === 'string' ? v : String(v));
const num = (v: unknown) => (typeof v === 'number' ? v : -1);

/**
 * The shop's side of every ctx call a plugin process makes: the message is decoded, checked by
 * `authorize` (the one checkpoint), then performed through the host context exactly as an
 * in-process plugin's call would be. The child is never trusted: any message shape is possible.
 */
export function ctxServer(deps: CtxServerDeps): (msg: UntrustedCtx) => Promise<unknown> {
  const { ctx, plugin, timeouts } = deps;
  const check = (c: Capability) => authorize(plugin, c);
  const registering = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      deps.refused.push((err as Error).message);
    }
    return Promise.resolve(undefined);
  };

  return async (msg) => {
    switch (msg.op) {
      case 'on': {
        const { args } = msg;
        return registering(() => {
          const pattern = str(args.pattern);
          check({ kind: 'events.subscribe', pattern });
          const hid = num(args.hid);
          ctx.on(pattern, async (event) => {
            await deps.proc().request('event', { hid, event }, timeouts.eventMs);
          });
        });
      }
      case 'route': {
        const { args } = msg;
        return registering(() => {
          const surface = args.surface === 'store' ? 'store' : 'admin';
          const method = str(args.method);
          const path = str(args.path);
          check({ kind: 'routes.add', surface, method, path });
          const hid = num(args.hid);
          ctx.routes[surface](method as 'GET', path, async (req: PluginRequest) => {
            const text = await deps.proc().request('route', { hid, req }, timeouts.routeMs);
            return typeof text === 'string' ? new SerializedJson(text) : undefined;
          });
        });
      }
      case 'provider': {
        const { args } = msg;
        return registering(() => registerProvider(deps, args, check));
      }
      case 'db.query': {
        const { args } = msg;
        check({ kind: 'db.query' });
        if (typeof args.text !== 'string') throw new Error('ctx.db.query: text must be a string');
        const params = Array.isArray(args.params) ? args.params : [];
        return ctx.db.query(args.text, params);
      }
      case 'orders.retrieve':
        check({ kind: 'api.read', api: 'orders:read' });
        // The host context checks the id itself (a non-empty string).
        return ctx.orders.retrieve(msg.args.id as string);
      case 'emit': {
        const { args } = msg;
        check({ kind: 'events.emit', name: str(args.name) });
        return ctx.emit(str(args.name), args.payload as { id: string });
      }
      case 'log': {
        const { args } = msg;
        check({ kind: 'log' });
        const level: keyof PluginLogger = (LEVELS as readonly unknown[]).includes(args.level)
          ? (args.level as keyof PluginLogger)
          : 'info';
        const data = args.data && typeof args.data === 'object' ? (args.data as Record<string, unknown>) : undefined;
        return ctx.logger[level](str(args.message).slice(0, 2_000), data);
      }
      default:
        throw new Error(`Unknown ctx call "${str((msg as { op: unknown }).op).slice(0, 40)}"`);
    }
  };
}

/** A provider stub whose methods call the plugin's process; the host context validates it as it would the real object. */
function registerProvider(
  deps: CtxServerDeps,
  args: { [F in keyof CtxCalls['provider']['args']]?: unknown },
  check: (c: Capability) => void,
): void {
  const kind =
    args.kind === 'notification' || args.kind === 'tax' || args.kind === 'fulfillment' ? args.kind : 'payment';
  check({ kind: 'providers.register', provider: kind, id: str(args.id) });
  const pid = num(args.pid);
  const methods = Array.isArray(args.methods) ? args.methods.filter((m): m is string => typeof m === 'string') : [];
  const impl: Record<string, unknown> = { id: args.id, name: args.name };
  if (Array.isArray(args.channels)) impl.channels = args.channels;
  for (const method of methods) {
    impl[method] = (input: unknown) =>
      deps.proc().request('provider', { pid, method, input }, deps.timeouts.providerMs);
  }
  // The stub has only the methods the process named: the registrar checks it as it checks a plugin's own object.
  const stub = impl as unknown as Parameters<PluginContext['payments']['register']>[0] &
    Parameters<PluginContext['taxes']['register']>[0] &
    Parameters<PluginContext['fulfillments']['register']>[0] &
    Parameters<PluginContext['notifications']['register']>[0];
  if (kind === 'payment') deps.ctx.payments.register(stub);
  else if (kind === 'tax') deps.ctx.taxes.register(stub);
  else if (kind === 'fulfillment') deps.ctx.fulfillments.register(stub);
  else deps.ctx.notifications.register(stub);
}
