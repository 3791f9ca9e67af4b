import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  freshDatabase,
  pidOfLocalPort,
  publishableKey,
  startServer,
  stopServer,
  type ServerProcess,
} from '../processes.ts';

/**
 * The store answer cache on PostgreSQL (products/store-cache.ts) across instances: B keeps its
 * answers in memory, A writes, and B's very next request shows the write, with no wait between
 * them. Each case first reads on B twice (the second read is an answer from memory), so a cache
 * that missed A's write would answer with what it kept.
 */
let A: ServerProcess;
let B: ServerProcess;
let work: string;
let token: string;
let key: string;
let channel: string;
let region: string;
let db: pg.Client;

beforeAll(async () => {
  const base = process.env.MULTI_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base) throw new Error('the multi-instance tier needs PostgreSQL: set DATABASE_URL');
  const url = await freshDatabase(base, `${new URL(base).pathname.slice(1) || 'emporium'}_multi_catalog`);
  work = mkdtempSync(path.join(tmpdir(), 'emporium-catalog-'));
  const env = (n: string) => ({ DATABASE_URL: url, DATA_DIR: path.join(work, n) });
  A = await startServer('shop-A', env('A'));
  B = await startServer('shop-B', env('B'));
  db = new pg.Client({ connectionString: url });
  await db.connect();
  token = await adminToken(A);
  key = await publishableKey(A, token);
  channel = (await admin('GET', '/admin/sales-channels')).body.sales_channels[0].id;
  const eu = await admin('POST', '/admin/regions', { name: 'EU', currency_code: 'eur', countries: ['nl'] });
  region = eu.body.region.id;
}, 240_000);

afterAll(async () => {
  await db?.end();
  await Promise.all([A, B].filter(Boolean).map((s) => stopServer(s)));
  if (work) rmSync(work, { recursive: true, force: true });
});

const admin = (method: string, url: string, body?: unknown) => A.call(method, url, body, { token });
const onB = (url: string) => B.call('GET', url, undefined, { key });

async function product(title: string) {
  const res = await admin('POST', '/admin/products', {
    title,
    status: 'published',
    sales_channels: [{ id: channel }],
    variants: [{ title: 'M', prices: [{ currency_code: 'eur', amount: 1000 }], inventory_quantity: 5 }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.product as { id: string; variants: { id: string }[] };
}

/** What B shows of product `id`: in the list (with the region's prices), and by id. */
async function seenOnB(id: string) {
  const list = await onB(`/store/products?limit=100&region_id=${region}`);
  const byId = await onB(`/store/products/${id}`);
  expect(list.status).toBe(200);
  const listed = list.body.products.find((p: { id: string }) => p.id === id);
  return {
    listed: !!listed,
    price: listed?.variants[0].calculated_price.calculated_amount as number | undefined,
    status: byId.status,
    stock: byId.body.product?.variants[0].inventory_quantity as number | undefined,
  };
}

/**
 * Ends B's LISTEN connections (as a network blip would; B opens them again a second later), so
 * that nothing A's commits NOTIFY reaches B meanwhile. Returns how many it ended.
 */
async function dropListenersOf(server: ServerProcess): Promise<number> {
  const { rows } = await db.query<{ pid: number; client_port: number }>(
    // Named by the listener (its last statement may be a lease renewal, not a LISTEN).
    `select pid, client_port from pg_stat_activity where datname = current_database() and application_name = 'emporium listen'`,
  );
  const ours = rows.filter((r) => pidOfLocalPort(r.client_port, [server.proc.pid!]) !== undefined);
  for (const r of ours) await db.query('select pg_terminate_backend($1)', [r.pid]);
  return ours.length;
}

/** Reads on B until its answers come from memory (two identical reads), then checks they are what was expected. */
async function primeB(id: string, expected: Awaited<ReturnType<typeof seenOnB>>) {
  expect(await seenOnB(id)).toEqual(expected);
  expect(await seenOnB(id)).toEqual(expected);
}

describe('instance B', () => {
  it('answers from memory while the catalog version stands (so the cases below test its version check)', async () => {
    const p = await product('Kept');
    await primeB(p.id, { listed: true, price: 1000, status: 200, stock: 5 });
    // A change with triggers off does not move the version: B keeps answering what it read.
    await db.query(`begin; set local session_replication_role = replica;
      update inventory_levels set stocked_quantity = 4 where inventory_item_id in
        (select inventory_item_id from product_variant_inventory_items where variant_id = '${p.variants[0].id}');
      commit`);
    expect(await seenOnB(p.id)).toEqual({ listed: true, price: 1000, status: 200, stock: 5 });
    // Any write the store can show moves it: B reads again and sees both.
    await product('Another');
    expect(await seenOnB(p.id)).toEqual({ listed: true, price: 1000, status: 200, stock: 4 });
  });
});

describe('a write on instance A is on instance B’s very next read', () => {
  it('a new price, then the stock a checkout on A took', async () => {
    const p = await product('Priced');
    await primeB(p.id, { listed: true, price: 1000, status: 200, stock: 5 });

    const priced = await admin('POST', `/admin/products/${p.id}`, {
      variants: [{ id: p.variants[0].id, prices: [{ currency_code: 'eur', amount: 1234 }] }],
    });
    expect(priced.status).toBe(200);
    expect(await seenOnB(p.id)).toEqual({ listed: true, price: 1234, status: 200, stock: 5 });

    await primeB(p.id, { listed: true, price: 1234, status: 200, stock: 5 });
    const cart = await A.call(
      'POST',
      '/store/carts',
      { email: 'multi@example.com', region_id: region, items: [{ variant_id: p.variants[0].id, quantity: 2 }] },
      { key },
    );
    expect(cart.status, JSON.stringify(cart.body)).toBe(200);
    const done = await A.call('POST', `/store/carts/${cart.body.cart.id}/complete`, undefined, { key });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await seenOnB(p.id)).toEqual({ listed: true, price: 1234, status: 200, stock: 3 });
  });

  it('even while B hears no NOTIFY at all', async () => {
    const p = await product('Unheard');
    await primeB(p.id, { listed: true, price: 1000, status: 200, stock: 5 });
    expect(await dropListenersOf(B)).toBeGreaterThan(0);
    const priced = await admin('POST', `/admin/products/${p.id}`, {
      variants: [{ id: p.variants[0].id, prices: [{ currency_code: 'eur', amount: 990 }] }],
    });
    expect(priced.status).toBe(200);
    expect(await seenOnB(p.id)).toEqual({ listed: true, price: 990, status: 200, stock: 5 });
  });

  it('a product taken out of the channel, unpublished, then deleted', async () => {
    const p = await product('Visible');
    const shown = { listed: true, price: 1000, status: 200, stock: 5 };
    const hidden = { listed: false, price: undefined, status: 404, stock: undefined };
    await primeB(p.id, shown);

    expect((await admin('POST', `/admin/sales-channels/${channel}/products`, { remove: [p.id] })).status).toBe(200);
    expect(await seenOnB(p.id)).toEqual(hidden);

    expect((await admin('POST', `/admin/sales-channels/${channel}/products`, { add: [p.id] })).status).toBe(200);
    expect(await seenOnB(p.id)).toEqual(shown);
    await primeB(p.id, shown);
    expect((await admin('POST', `/admin/products/${p.id}`, { status: 'draft' })).status).toBe(200);
    expect(await seenOnB(p.id)).toEqual(hidden);

    expect((await admin('POST', `/admin/products/${p.id}`, { status: 'published' })).status).toBe(200);
    await primeB(p.id, shown);
    expect((await admin('DELETE', `/admin/products/${p.id}`)).status).toBe(200);
    expect(await seenOnB(p.id)).toEqual(hidden);
  });
});
