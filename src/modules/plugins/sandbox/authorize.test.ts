import { describe, expect, it } from 'vitest';
import type { PluginContext } from '../../../../plugin-sdk/index.ts';
import { rightsOf } from '../../../plugin-package/permissions.ts';
import { grantOf, PluginPermissionError } from '../rights.ts';
import { authorize, type PluginIdentity } from './authorize.ts';
import type { PluginProcess } from './plugin-process.ts';
import { ctxServer } from './serve-ctx.ts';

/**
 * The checkpoint decides alone: the host context below performs whatever reaches it and checks
 * nothing, so a refusal seen here can only come from authorize.ts.
 */
function served(permissions: Record<string, unknown>) {
  const performed: string[] = [];
  const record =
    (what: string) =>
    (..._args: unknown[]) => {
      performed.push(what);
      return Promise.resolve(null);
    };
  const ctx = {
    on: record('on'),
    routes: { admin: record('route:admin'), store: record('route:store') },
    db: { query: record('db.query') },
    orders: { retrieve: record('orders.retrieve') },
    emit: record('emit'),
    payments: { register: record('payments') },
    notifications: { register: record('notifications') },
    logger: { debug: record('log'), info: record('log'), warn: record('log'), error: record('log') },
    config: {},
    plugin: { id: 'p', version: '1.0.0' },
  } as unknown as PluginContext;
  const rights = rightsOf({ permissions } as never);
  const plugin: PluginIdentity = { manifestId: 'p', rowId: 'plug_1', manifest: null, grant: grantOf('p', rights) };
  const refused: string[] = [];
  const serve = ctxServer({
    plugin,
    ctx,
    proc: () => ({}) as PluginProcess,
    timeouts: { routeMs: 1_000, eventMs: 1_000, providerMs: 1_000 },
    refused,
  });
  return { serve, performed, refused, plugin };
}

describe('sandbox/authorize: the one checkpoint for a plugin process', () => {
  it('refuses a read API the manifest did not declare, before anything runs', async () => {
    const { serve, performed } = served({ events: [] });
    const call = serve({ id: 1, op: 'orders.retrieve', args: { id: 'order_1' } });
    await expect(call).rejects.toBeInstanceOf(PluginPermissionError);
    await expect(call).rejects.toMatchObject({ status: 403, message: expect.stringContaining('api:orders:read') });
    expect(performed).toEqual([]);
  });

  it('lets the same call through once the right is declared, and records its use', async () => {
    const { serve, performed, plugin } = served({ apis: ['orders:read'] });
    await serve({ id: 1, op: 'orders.retrieve', args: { id: 'order_1' } });
    expect(performed).toEqual(['orders.retrieve']);
    expect([...plugin.grant.used]).toEqual(['api:orders:read']);
  });

  it('refuses undeclared subscriptions, routes and providers as refused registrations', async () => {
    const { serve, performed, refused } = served({ events: ['order.*'] });
    await serve({ op: 'on', args: { pattern: 'customer.created', hid: 1 } });
    await serve({ op: 'route', args: { surface: 'store', method: 'GET', path: '/x', hid: 2 } });
    await serve({ op: 'provider', args: { kind: 'payment', pid: 3, id: 'pay', name: 'Pay', methods: [] } });
    await serve({ op: 'on', args: { pattern: 'order.placed', hid: 4 } });
    expect(refused).toEqual([
      expect.stringContaining('may not use event:customer.created'),
      expect.stringContaining('may not use route:store'),
      expect.stringContaining('may not use provider:payments'),
    ]);
    expect(performed).toEqual(['on']);
  });

  it('refuses to every plugin what no manifest can grant', () => {
    const { plugin } = served({ events: ['*'], routes: { admin: true } });
    expect(() => authorize(plugin, { kind: 'events.emit', name: 'order.placed' })).toThrow('is a core event');
    expect(() => authorize(plugin, { kind: 'events.subscribe', pattern: 'Order Placed' })).toThrow(
      'is not an event name or pattern',
    );
    expect(() =>
      authorize(plugin, { kind: 'routes.add', surface: 'admin', method: 'GET', path: '/configure' }),
    ).toThrow('is reserved by the shop');
  });
});
