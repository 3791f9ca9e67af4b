import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { workerDatabaseUrl } from '../../../test/database.ts';
import { eventually } from '../../../test/processes.ts';
import { rows } from '../../platform/db/database.ts';
import { STORE_CATALOG_CHANNEL } from './catalog-leases.ts';
import { defaultChannelId, makeProduct, uniq } from './products.testing.ts';

const base = process.env.DATABASE_URL;

/**
 * The store catalog's read leases on PostgreSQL (catalog-leases.ts). The other instance here is a
 * plain connection: it takes a lease in the table and acknowledges the writer's `w`, or does not.
 * test/multi/store-catalog.test.ts runs the same against a second server process.
 */
describe.skipIf(!base)('store catalog read leases (PostgreSQL)', () => {
  let t: TestApp;
  let other: pg.Client;
  let channel: string;
  const heard: string[] = [];
  let acknowledging = true;

  beforeAll(async () => {
    t = await startTestApp();
    channel = await defaultChannelId(t);
    other = new pg.Client({ connectionString: workerDatabaseUrl(base as string) });
    await other.connect();
    other.on('notification', (msg) => {
      const [kind, writer, n] = (msg.payload ?? '').split(' ');
      if (kind !== 'w') return;
      heard.push(writer as string);
      if (acknowledging)
        void other.query('select pg_notify($1, $2)', [STORE_CATALOG_CHANNEL, `a ${writer} ${n} other`]);
    });
    await other.query(`listen ${STORE_CATALOG_CHANNEL}`);
  });
  afterAll(async () => {
    await other?.end();
    await t?.close();
  });

  const leases = () => t.app.catalogLeases!;
  const write = async () => {
    const res = await t.admin('POST', '/admin/products', { title: `Lease ${uniq()}` });
    expect(res.statusCode, res.body).toBe(200);
  };
  /** Whether the other instance's lease is still running by the database's clock. */
  const otherRunning = async () =>
    (await other.query(`select until > now() as running from store_catalog_leases where holder = 'other'`)).rows[0]
      .running as boolean;

  it('holds a lease once its renewal came back, under its holder id in the table', async () => {
    await eventually(async () => leases().holds(), 5_000, 'the lease');
    const [row] = await rows<{ running: boolean }>(
      t.database.db,
      sql`select until > now() as running from store_catalog_leases where holder = ${leases().holder}`,
    );
    expect(row?.running).toBe(true);
  });

  it('a write answers once every holder acknowledged it, waits out the lease of one that does not, and only a write the store shows waits', async () => {
    await other.query(
      `insert into store_catalog_leases (holder, until) values ('other', now() + interval '60 seconds')`,
    );
    await write();
    expect(heard).toContain(leases().holder);
    expect(await otherRunning()).toBe(true); // answered on the acknowledgement, long before the lease's end

    acknowledging = false; // an instance that stopped hearing NOTIFYs, with its lease still running
    // A write that changes nothing the store shows does not wait at all.
    heard.length = 0;
    const customer = await t.admin('POST', '/admin/customers', { email: `lease-${uniq()}@example.com` });
    expect(customer.statusCode, customer.body).toBe(200);
    expect(heard).toEqual([]);
    expect(await otherRunning()).toBe(true);

    await other.query(
      `update store_catalog_leases set until = now() + interval '800 milliseconds' where holder = 'other'`,
    );
    await write();
    expect(await otherRunning()).toBe(false); // the answer came only after its lease ended
    await other.query(`delete from store_catalog_leases where holder = 'other'`);
  });

  it("learns from its statements' NOTICEs which products its own stock writes moved, before their answer", async () => {
    const p = await makeProduct(t, {
      title: `Lease ${uniq()}`,
      status: 'published',
      sales_channels: [{ id: channel }],
      variants: [{ title: 'M', inventory_quantity: 5 }],
    });
    const from = leases().stockCount;
    await t.database.db.execute(
      sql`update product_variants set inventory_quantity = inventory_quantity - 1 where id = ${p.variants[0]!.id}`,
    );
    expect(leases().stockSince(from)).toEqual([p.id]);
    // A move of any product (a location's channels), then nothing known at all: every stock answer goes.
    await t.database.db.execute(sql`update stock_locations set name = name`);
    expect(leases().stockSince(from)).toBeNull();
    expect(leases().stockSince(leases().stockCount)).toBeNull();
  });

  it('keeps its lease while every pooled connection is busy: renewals go on the listening connection', async () => {
    await eventually(async () => leases().holds(), 5_000, 'the lease');
    const lapses = leases().lapses;
    // The tests' pool has 20 connections: all of them asleep for 2.5 s, longer than a lease runs.
    const sleepers = Array.from({ length: 20 }, () => t.database.db.execute(sql`select pg_sleep(2.5)`));
    let held = 0;
    let lost = 0;
    const watching = setInterval(() => (leases().holds() ? held++ : lost++), 100);
    await Promise.all(sleepers);
    clearInterval(watching);
    expect({ lost, lapses: leases().lapses }).toEqual({ lost: 0, lapses });
    expect(held).toBeGreaterThan(15);
  });

  it('a lease that ran out while the connection stayed (a stalled event loop) keeps what it kept', async () => {
    await eventually(async () => leases().holds(), 5_000, 'the lease');
    const changes: string[] = [];
    leases().onChange((kind) => changes.push(kind));
    const lapses = leases().lapses;
    const until = performance.now() + 1_800; // longer than a lease: its renewals cannot be heard meanwhile
    while (performance.now() < until);
    expect(leases().holds()).toBe(false);
    await eventually(async () => leases().holds(), 5_000, 'the lease again');
    // At least this lapse; on a busy machine the first renewal after the stall can come late too
    // and count another (a CI run saw two). Either way nothing may start over.
    expect(leases().lapses).toBeGreaterThan(lapses);
    // Every NOTIFY came on the same connection in order: nothing was missed, nothing starts over.
    expect(changes).toEqual([]);
  });

  it('after its listening connection dropped, a lease taken again starts the kept answers over', async () => {
    const p = await makeProduct(t, {
      title: `Lease ${uniq()}`,
      status: 'published',
      sales_channels: [{ id: channel }],
      variants: [{ title: 'M', inventory_quantity: 5 }],
    });
    const stock = async () => {
      const res = await t.store('GET', `/store/products/${p.id}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().product.variants[0].inventory_quantity as number;
    };
    await eventually(async () => leases().holds(), 5_000, 'the lease');
    expect(await stock()).toBe(5);
    expect(await stock()).toBe(5); // kept in memory

    await other.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = 'emporium listen' and datname = current_database()`,
    );
    await eventually(async () => !leases().holds(), 5_000, 'the lease ended with the connection');
    // Committed while the app listens nowhere (it connects again a second later): its NOTIFY is lost.
    await other.query('update product_variants set inventory_quantity = 2 where id = $1', [p.variants[0]!.id]);
    await eventually(async () => leases().holds(), 10_000, 'a lease again');
    expect(await stock()).toBe(2);
  });
});
