import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { inTx } from '../context.ts';
import { rows } from '../db/database.ts';
import type { EventMessage } from './bus.ts';
import { eventMatches, eventMatchesSql } from './bus.ts';
import { Dispatcher, type DurableSink } from './dispatcher.ts';
import { emitLoose } from '../../../test/events.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const emitOne = (name: 'order.placed' | 'product.created' | 'cart.created', id: string) =>
  inTx(t.ctx, (tctx) => emitLoose(tctx, name, { id }));

const pending = () => rows<{ id: string }>(t.database.db, sql`select id from outbox where dispatched_at is null`);

const MATCHES: [string, string, boolean][] = [
  ['order.placed', 'order.placed', true],
  ['order.*', 'order.placed', true],
  ['*', 'cart.created', true],
  ['order.*', 'orders.placed', false],
  ['order.placed', 'order.paid', false],
  ['order', 'order.placed', false],
  ['acme.loyalty.*', 'acme.loyalty.points_added', true],
  ['acme.*', 'acmex.thing', false],
  ['order.*', 'order', false],
];

describe('eventMatches', () => {
  it.each(MATCHES)('%s vs %s → %s', (pattern, name, expected) => expect(eventMatches(pattern, name)).toBe(expected));

  it('matches the same in SQL (the dispatcher’s claim)', async () => {
    for (const [pattern, name, expected] of MATCHES) {
      const [row] = await rows<{ m: boolean }>(
        t.database.db,
        sql`select ${eventMatchesSql(sql`${pattern}::text`, sql`${name}::text`)} as m`,
      );
      expect(row.m, `${pattern} vs ${name}`).toBe(expected);
    }
  });
});

describe('dispatcher', () => {
  it('runs exact, group and catch-all subscribers once each and marks events dispatched', async () => {
    const seen: string[] = [];
    const offs = [
      t.workers.bus.on('order.placed', (e) => void seen.push(`exact:${e.payload.id}`)),
      t.workers.bus.on('order.*', (e) => void seen.push(`group:${e.payload.id}`)),
      t.workers.bus.on('*', (e) => void seen.push(`all:${e.payload.id}`)),
    ];
    await emitOne('order.placed', 'order_1');
    await emitOne('cart.created', 'cart_1');
    await t.workers.dispatcher.drain();
    for (const off of offs) off();
    expect(seen.sort()).toEqual(['all:cart_1', 'all:order_1', 'exact:order_1', 'group:order_1']);
    expect(await pending()).toEqual([]);
  });

  it('keeps going when a subscriber throws or hangs, and counts both', async () => {
    const dispatcher = new Dispatcher({
      database: t.database,
      clock: t.clock,
      log: t.app.log,
      bus: t.workers.bus,
      handlerTimeoutMs: 30,
    });
    const got: string[] = [];
    const offs = [
      t.workers.bus.on('product.created', () => {
        throw new Error('plugin bug');
      }),
      t.workers.bus.on('product.created', () => new Promise(() => {})),
      t.workers.bus.on('product.created', (e) => void got.push(e.payload.id as string)),
    ];
    await emitOne('product.created', 'prod_a');
    await dispatcher.drain();
    for (const off of offs) off();
    expect(got).toEqual(['prod_a']);
    expect(dispatcher.stats).toMatchObject({ dispatched: 1, handlerErrors: 1, handlerTimeouts: 1 });
    expect(await pending()).toEqual([]);
  });

  it('redelivers a batch whose dispatcher died after claiming it, once its lease expires', async () => {
    await emitOne('order.placed', 'order_crash');
    // A dispatcher claims the batch and dies before finishing (its subscriber never returns).
    const dying = new Dispatcher({
      database: t.database,
      clock: t.clock,
      log: t.app.log,
      bus: t.workers.bus,
      leaseMs: 60_000,
    });
    let claimed!: () => void;
    const inHandler = new Promise<void>((r) => (claimed = r));
    const offHang = t.workers.bus.on('order.placed', () => {
      claimed();
      return new Promise(() => {});
    });
    void dying.runOnce();
    await inHandler;
    offHang();
    const received: EventMessage[] = [];
    const off = t.workers.bus.on('order.placed', (e) => void received.push(e));
    const fresh = new Dispatcher({ database: t.database, clock: t.clock, log: t.app.log, bus: t.workers.bus });
    await fresh.drain();
    expect(received).toEqual([]); // still leased
    t.clock.advance(61_000);
    await fresh.drain();
    off();
    expect(received.map((e) => e.payload.id)).toEqual(['order_crash']);
    expect(await pending()).toEqual([]);
  });

  it('lets two dispatchers on one database deliver each event once', async () => {
    const counts = new Map<string, number>();
    const off = t.workers.bus.on(
      'cart.created',
      (e) => void counts.set(e.payload.id as string, (counts.get(e.payload.id as string) ?? 0) + 1),
    );
    for (let i = 0; i < 60; i++) await emitOne('cart.created', `cart_${i}`);
    const a = new Dispatcher({
      database: t.database,
      clock: t.clock,
      log: t.app.log,
      bus: t.workers.bus,
      batchSize: 5,
    });
    const b = new Dispatcher({
      database: t.database,
      clock: t.clock,
      log: t.app.log,
      bus: t.workers.bus,
      batchSize: 5,
    });
    await Promise.all([a.drain(), b.drain()]);
    off();
    expect(counts.size).toBe(60);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(a.stats.dispatched + b.stats.dispatched).toBe(60);
  });

  it('the claim alone dispatches events no subscriber and no sink wants; the others go through as before', async () => {
    const written: string[] = [];
    const sink: DurableSink = {
      wants: (name) => sql`${name} = 'order.placed'`,
      write: (_ctx, events) => {
        written.push(...events.map((e) => `${e.name}:${e.payload.id}`));
        return { writes: [], queued: false };
      },
    };
    const dispatcher = new Dispatcher({
      database: t.database,
      clock: t.clock,
      log: t.app.log,
      bus: t.workers.bus,
      sinks: [sink],
    });
    const seen: string[] = [];
    const off = t.workers.bus.on('cart.*', (e) => void seen.push(`${e.name}:${e.payload.id}`));
    await emitOne('cart.created', 'cart_w');
    await emitOne('order.placed', 'order_w');
    await emitOne('product.created', 'prod_w');
    await dispatcher.drain();
    off();
    // The sink sees the batch's wanted events (it filters them itself); never one nobody wants.
    expect(written).toEqual(['cart.created:cart_w', 'order.placed:order_w']);
    expect(seen).toEqual(['cart.created:cart_w']);
    expect(dispatcher.stats.dispatched).toBe(3);
    expect(await pending()).toEqual([]);
  });

  it('wakes up on commit through LISTEN/NOTIFY when started', async () => {
    const got = new Promise<EventMessage>((resolve) => {
      const off = t.workers.bus.on('order.placed', (e) => {
        off();
        resolve(e);
      });
    });
    await t.workers.start();
    await emitOne('order.placed', 'order_notify');
    const event = await got;
    await t.workers.stop();
    expect(event.payload.id).toBe('order_notify');
  });
});
