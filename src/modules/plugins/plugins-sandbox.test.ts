import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import { emitLoose } from '../../../test/events.ts';
import { inTx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import {
  installAndWait,
  packPlugin,
  pluginSlug,
  type TestMarketplace,
  startMarketplaceAndShop,
} from './plugins.testing.ts';
import { EVIL_FILES } from './sandbox/evil.testing.ts';

let m: TestMarketplace;
let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ m, t, env } = await startMarketplaceAndShop({
    PLUGIN_MEMORY_MB: '32',
    PLUGIN_ROUTE_TIMEOUT_MS: '2000', // dying of its memory cap takes a while on a busy machine
    PLUGIN_CALL_TIMEOUT_MS: '500',
    PLUGIN_MAX_CRASHES: '3',
    PLUGIN_RESTART_DELAY_MS: '20',
  }));
});
afterAll(() => closeAll(t, m));

/** Installs a fresh copy of the evil plugin (its own crash count); returns its manifest and row ids. */
async function installEvil() {
  const id = pluginSlug('evil');
  const item = await m.publish(await packPlugin({ id, server: 'server/index.js' }, EVIL_FILES));
  const plugin = await installAndWait(t, item.marketplace_id);
  expect(plugin.status, plugin.error).toBe('installed');
  return { id, rowId: plugin.id as string };
}

const detail = async (rowId: string) => (await t.admin('GET', `/admin/plugins/${rowId}`)).json().plugin;

/** Waits for the plugin's process to be noticed dead and dealt with (a real process: real time). */
interface Detail {
  status: string;
  error: string | null;
  runtime: { running: boolean; restarts: number; last_crash: { reason: string } } & Record<string, unknown>;
}

async function until(rowId: string, check: (p: Detail) => boolean): Promise<Detail> {
  for (let i = 0; i < 200; i++) {
    await t.app.plugins.settled();
    const p = await detail(rowId);
    if (check(p)) return p;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`plugin state not reached within 10 s: ${JSON.stringify(await detail(rowId))}`);
}

/** The shop's own routes answer while a plugin misbehaves. */
async function shopAnswers() {
  expect((await t.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  expect((await t.store('GET', '/store/products')).statusCode).toBe(200);
}

describe('the evil plugin is refused or contained', () => {
  let evil: { id: string; rowId: string };
  beforeAll(async () => {
    evil = await installEvil();
  });
  const call = (method: 'GET' | 'POST', route: string, body?: unknown) =>
    t.admin(method, `/admin/plugins/${evil.id}${route}`, body as never);

  it('reads process.env.JWT_SECRET and gets nothing: its environment is empty', async () => {
    expect(process.env.JWT_SECRET ?? t.app.plugins.deps.config.jwtSecret).toBeTruthy();
    expect((await call('GET', '/env')).json()).toEqual({ jwt: null, keys: [] });
  });

  it('may read its own files, but not /etc/passwd nor the shop’s DATA_DIR', async () => {
    expect((await call('GET', '/read-own')).json()).toEqual({ done: evil.id });
    expect((await call('POST', '/read', { path: '/etc/passwd' })).json()).toEqual({ refused: 'ERR_ACCESS_DENIED' });
    const secret = path.join(env.DATA_DIR, 'shop-secret.txt');
    writeFileSync(secret, 'the shop’s own data');
    expect((await call('POST', '/read', { path: secret })).json()).toEqual({ refused: 'ERR_ACCESS_DENIED' });
    expect((await call('POST', '/write', { path: secret })).json()).toEqual({ refused: 'ERR_ACCESS_DENIED' });
    await shopAnswers();
  });

  it('cannot spawn a process, start a worker or reach internal bindings', async () => {
    expect((await call('GET', '/spawn')).json()).toEqual({ refused: 'ERR_ACCESS_DENIED' });
    expect((await call('GET', '/worker')).json()).toEqual({ refused: 'ERR_ACCESS_DENIED' });
    expect((await call('GET', '/binding')).json()).toEqual({ refused: 'ERR_ACCESS_DENIED' });
  });

  it('cannot emit a core event, through ctx or a forged message', async () => {
    expect((await call('POST', '/emit', { name: 'order.placed', id: 'order_forged' })).json()).toEqual({
      refused: 'ctx.emit: "order.placed" is a core event; a plugin emits only its own events',
    });
    await call('POST', '/forge', { op: 'emit', args: { name: 'order.paid', payload: { id: 'order_forged' } } });
    await call('POST', '/forge', { op: 'shell', args: { cmd: 'id' } });
    expect((await call('GET', '/ok')).statusCode).toBe(200); // served after the forged messages
    const forged = await rows<{ name: string }>(
      t.database.db,
      sql`select name from outbox where payload->>'id' = 'order_forged'`,
    );
    expect(forged).toEqual([]);
    expect((await call('POST', '/emit', { name: 'note.added', id: 'n1' })).json()).toEqual({ emitted: true });
  });

  it('allocates until it dies: contained by its memory cap, restarted, and the admin sees why', async () => {
    const before = (await call('GET', '/ok')).json().pid;
    const died = await call('GET', '/allocate');
    expect(died.statusCode).toBe(503);
    expect(died.json()).toEqual({
      type: 'service_unavailable',
      code: 'plugin_restarting',
      message: `Plugin ${evil.id} is restarting; try again shortly`,
    });
    await shopAnswers();
    const p = await until(evil.rowId, (x) => x.runtime.restarts >= 1 && x.runtime.running);
    expect(p.status).toBe('installed');
    expect(p.runtime.last_crash.reason).toBe(`Plugin ${evil.id} process ran out of memory (limit 32 MB)`);
    const after = (await call('GET', '/ok')).json().pid;
    expect(after).not.toBe(before);
  });

  it('spins forever in a handler: the deadline answers 504, the process is killed and restarted', async () => {
    const before = (await call('GET', '/ok')).json().pid;
    const spin = call('GET', '/spin');
    await shopAnswers(); // while the plugin's process is stuck
    const res = await spin;
    expect(res.statusCode).toBe(504);
    const p = await until(evil.rowId, (x) => x.runtime.restarts >= 2 && x.runtime.running);
    expect(p.runtime.last_crash.reason).toBe(
      `Plugin ${evil.id} did not answer a ping within 1000 ms after a missed deadline (blocked event loop); killed`,
    );
    expect(p.runtime.timeouts).toBeGreaterThanOrEqual(1);
    expect((await call('GET', '/ok')).json().pid).not.toBe(before);
  });

  it('shows calls, errors, time and memory of its process', async () => {
    const p = await detail(evil.rowId);
    expect(p.runtime).toMatchObject({
      running: true,
      pid: expect.any(Number),
      crashes: 2,
      restarts: 2,
      crashes_in_window: 2,
      memory: { rss: expect.any(Number), heap_used: expect.any(Number), heap_total: expect.any(Number) },
    });
    expect(p.runtime.calls).toBeGreaterThan(10);
    expect(p.runtime.errors).toBeGreaterThanOrEqual(1); // the call that found it dead
    expect(p.runtime.memory.rss).toBeGreaterThan(1_000_000);
  });

  it('spins forever in an event handler: the call deadline gives up, the process is killed and restarted', async () => {
    const other = await installEvil(); // a crash count of its own
    const ok = async () => (await t.admin('GET', `/admin/plugins/${other.id}/ok`)).json().pid;
    const before = await ok();
    await inTx(t.ctx, (tctx) => emitLoose(tctx, 'order.placed', { id: 'order_spin', spin: other.id }));
    await t.workers.dispatcher.drain(); // done once the handler's deadline (PLUGIN_CALL_TIMEOUT_MS) passed
    await shopAnswers();
    const p = await until(other.rowId, (x) => x.runtime.restarts === 1 && x.runtime.running);
    expect(p.runtime.last_crash.reason).toContain('blocked event loop');
    expect(await ok()).not.toBe(before);
  });

  // The evil plugin's database attempts (select from public.customers and public.users, write
  // another plugin's schema) run from its own process in plugins-db-rights.test.ts.
});

describe('crash policy', () => {
  it('sets a plugin that keeps crashing failed, with plugin.failed and an admin notification; the shop goes on', async () => {
    const evil = await installEvil();
    for (let crash = 1; crash <= 3; crash++) {
      await until(evil.rowId, (x) => x.runtime?.running === true);
      expect((await t.admin('GET', `/admin/plugins/${evil.id}/exit`)).statusCode).toBe(503);
      await shopAnswers();
    }
    const p = await until(evil.rowId, (x) => x.status === 'failed');
    expect(p.error).toBe(`Crashed 3 times within 10 min; last: Plugin ${evil.id} process exited (code 3)`);
    expect(p.runtime).toMatchObject({ running: false, crashes: 3, restarts: 2 });
    expect((await t.admin('GET', `/admin/plugins/${evil.id}/ok`)).statusCode).toBe(404);
    const events = await rows<{ payload: Record<string, unknown> }>(
      t.database.db,
      sql`select payload from outbox where name = 'plugin.failed' and payload->>'id' = ${evil.rowId}`,
    );
    expect(events.map((e) => e.payload)).toEqual([
      expect.objectContaining({ id: evil.rowId, status: 'failed', reason: p.error }),
    ]);
    const notes = (await t.admin('GET', '/admin/notifications?type=plugin.failed')).json().notifications;
    expect(notes.filter((n: { data: { plugin_id: string } }) => n.data.plugin_id === evil.rowId)).toHaveLength(1);
    await shopAnswers();
  });

  it('a plugin that throws in register fails to install, says why, and leaves the shop serving', async () => {
    const id = pluginSlug('evil-register');
    const server = `export default { register(ctx) { ctx.routes.admin('GET', '/x', () => 1); throw new Error('no way'); } };`;
    const item = await m.publish(await packPlugin({ id, server: 'server/index.js' }, { 'server/index.js': server }));
    const plugin = await installAndWait(t, item.marketplace_id);
    expect(plugin).toMatchObject({ status: 'failed', error: 'Plugin threw while loading: no way' });
    expect((await t.admin('GET', `/admin/plugins/${id}/x`)).statusCode).toBe(404);
    await shopAnswers();
  });
});
