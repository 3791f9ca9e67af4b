import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { createTestHost, type Plugin } from './index.ts';

const example = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../examples/plugins/order-notes');
const manifest = JSON.parse(readFileSync(path.join(example, 'manifest.json'), 'utf8'));
const load = async () => (await import(path.join(example, 'server/index.js'))).default as Plugin;

async function notesDb() {
  const db = new PGlite();
  await db.exec(readFileSync(path.join(example, 'migrations/0001_init.sql'), 'utf8'));
  return db;
}

describe('createTestHost runs the order-notes example without a shop', () => {
  it('delivers events to its handlers and answers its routes, with its SQL on a real database', async () => {
    const db = await notesDb();
    const host = createTestHost({
      plugin: { id: 'order-notes', version: '1.0.0' },
      config: { note_prefix: 'NB' },
      permissions: manifest.permissions,
      db,
      orders: { order_1: { id: 'order_1', email: 'a@example.com', total: 4200, items: [{ id: 'i1' }, { id: 'i2' }] } },
    });
    await host.load(await load());
    await host.emit('order.placed', { id: 'order_1', email: 'a@example.com' });
    await host.emit('order.placed', { id: 'order_1', email: 'a@example.com' }); // twice: one note
    await host.emit('customer.created', { id: 'cus_1' }); // not subscribed: nothing

    const one = await host.request('admin', 'GET', '/notes/order_1');
    expect(one).toMatchObject({
      status: 200,
      body: { note: { order_id: 'order_1', note: 'NB Order order_1 placed by a@example.com' } },
    });
    expect((await host.request('admin', 'GET', '/notes')).body).toMatchObject({ notes: [{ order_id: 'order_1' }] });
    expect(await host.request('admin', 'GET', '/notes/nope')).toEqual({
      status: 404,
      body: { message: 'No note for order nope' },
    });
    expect(await host.request('admin', 'GET', '/orders/order_1/summary')).toEqual({
      status: 200,
      body: { order_id: 'order_1', email: 'a@example.com', total: 4200, item_count: 2 },
    });
    expect((await host.request('store', 'GET', '/notes')).status).toBe(404);
    expect(host.logs).toContainEqual({ level: 'info', message: 'note written', data: { order_id: 'order_1' } });
    await db.close();
  }, 120_000); // a fresh PGlite takes seconds to start on a busy machine

  it('enforces declared permissions like the shop, and reloads on configure', async () => {
    const host = createTestHost({ permissions: { routes: { admin: true } }, orders: {} });
    await expect(host.load(await load())).rejects.toThrow('may not use event:order.placed');

    const nosy = createTestHost({ permissions: { routes: { admin: true } } });
    await nosy.load({
      register(ctx) {
        ctx.routes.admin('GET', '/o/:id', async (req) => ({ order: await ctx.orders.retrieve(req.params.id) }));
        ctx.routes.admin('GET', '/greeting', () => ({ greeting: ctx.config.greeting ?? null }));
      },
    });
    expect(await nosy.request('admin', 'GET', '/o/x')).toEqual({
      status: 403,
      body: { message: 'Plugin test-plugin may not use api:orders:read: add it to permissions.apis' },
    });
    await nosy.configure({ greeting: 'hej' });
    expect((await nosy.request('admin', 'GET', '/greeting')).body).toEqual({ greeting: 'hej' });
  });
});
