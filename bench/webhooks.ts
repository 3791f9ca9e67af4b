/**
 * Webhook benchmark: signed deliveries to a local receiver (its own process), on PostgreSQL when
 * DATABASE_URL is set (database emporium_webhooks_bench is recreated), else PGlite.
 *   1. throughput: N events (default 5,000) committed to the outbox, then the workers start;
 *      deliveries/s until the last one is received and recorded;
 *   2. latency: events emitted one per transaction at a steady rate; commit → first attempt p50/p99;
 *   3. both again with a second subscription whose receiver hangs 30 s on every request.
 *
 *   npm run bench:webhooks
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:webhooks
 *   npm run bench:webhooks -- --events 20000 --latency-events 1000 --rate 200
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { systemClock } from '../src/platform/clock.ts';
import { loadConfig } from '../src/platform/config.ts';
import { inTx, type Ctx } from '../src/platform/context.ts';
import { openDatabase, rows, type Database } from '../src/platform/db/database.ts';
import { emit } from '../src/platform/events/emit.ts';
import { outbox } from '../src/platform/events/tables.ts';
import { newId } from '../src/platform/ids.ts';
import { createWebhook, updateWebhook } from '../src/modules/webhooks/service.ts';
import { createWorkers } from '../src/workers.ts';
import { freshBenchDatabase } from './lib.ts';

const { values: opts } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    'latency-events': { type: 'string', default: '500' },
    rate: { type: 'string', default: '200' },
    'hang-ms': { type: 'string', default: '30000' },
  },
});
const N = Number(opts.events);
const LATENCY_EVENTS = Number(opts['latency-events']);
const RATE = Number(opts.rate);
const SECRET = 'whsec_bench_secret';
const wallNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Stats {
  received: number;
  badSignatures: number;
  hangReceived: number;
  firstArrival?: Record<string, number>;
}

function receiverProcess(): Promise<{
  child: ChildProcess;
  fast: string;
  hang: string;
  stats(withArrivals?: boolean): Promise<Stats>;
  reset(): Promise<void>;
}> {
  const child = fork(path.join(import.meta.dirname, 'webhook-receiver.mjs'), [], {
    env: { ...process.env, BENCH_SECRET: SECRET, HANG_MS: opts['hang-ms'] },
  });
  const ask = <T>(msg: object, key: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (!(key in m)) return;
        child.off('message', on);
        resolve(m[key] as T);
      };
      child.on('message', on);
      child.send(msg);
    });
  return new Promise((resolve) => {
    child.once('message', (m: { fast: number; hang: number }) =>
      resolve({
        child,
        fast: `http://127.0.0.1:${m.fast}/hook`,
        hang: `http://127.0.0.1:${m.hang}/hook`,
        stats: (withArrivals = false) => ask<Stats>({ cmd: 'stats', withArrivals }, 'stats'),
        reset: () => ask<void>({ cmd: 'reset' }, 'reset'),
      }),
    );
  });
}

/** Commits `n` events straight into the outbox, 500 per transaction (what N checkouts would leave). */
async function preloadOutbox(database: Database, n: number, tag: string): Promise<void> {
  for (let i = 0; i < n; i += 500) {
    const batch = Array.from({ length: Math.min(500, n - i) }, (_, k) => ({
      id: newId('evt'),
      name: 'order.placed',
      payload: { id: `order_${tag}_${i + k}`, total: 1999, currency_code: 'eur', email: 'buyer@example.com' },
      created_at: new Date(),
    }));
    await database.db.insert(outbox).values(batch);
  }
}

async function recordedCount(database: Database, subscriptionId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from webhook_deliveries where subscription_id = ${subscriptionId} and status = 'succeeded'`,
  );
  return row.n;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round1 = (x: number) => Math.round(x * 10) / 10;

async function main() {
  const databaseUrl = await freshBenchDatabase('emporium_webhooks_bench');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-webhooks-bench-'));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? '',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'development',
  });
  const database = await openDatabase({ databaseUrl, dataDir });
  await database.migrate();
  const log = pino({ level: 'warn' });
  const ctx: Ctx = { db: database.db, clock: systemClock, log };
  const policy = { encryptionKey: config.encryptionKey, blockPrivate: false };
  const receiver = await receiverProcess();
  const fastHook = await createWebhook(ctx, policy, {
    url: receiver.fast,
    events: ['order.*'],
    signing_secret: SECRET,
  });
  const results: Record<string, string | number>[] = [];

  async function throughput(scenario: string, tag: string, n = N) {
    await receiver.reset();
    await preloadOutbox(database, n, tag);
    const before = await recordedCount(database, fastHook.id);
    const workers = createWorkers({ database, clock: systemClock, log, config });
    const start = wallNow();
    const cpuBefore = process.cpuUsage();
    await workers.start();
    let stats = await receiver.stats();
    while (stats.received < n) {
      await sleep(20);
      stats = await receiver.stats();
    }
    const receivedMs = wallNow() - start;
    while ((await recordedCount(database, fastHook.id)) - before < n) await sleep(20);
    const recordedMs = wallNow() - start;
    const cpu = process.cpuUsage(cpuBefore);
    await workers.stop();
    results.push({
      scenario,
      'deliveries/s (received)': Math.round(n / (receivedMs / 1000)),
      'deliveries/s (recorded)': Math.round(n / (recordedMs / 1000)),
      // Dispatcher + sender in this process; a load-independent view of the Node side's cost.
      'worker CPU µs/delivery': Math.round((cpu.user + cpu.system) / n),
      'bad signatures': stats.badSignatures,
      'hanging receiver got': stats.hangReceived,
    });
  }

  async function latency(scenario: string, tag: string) {
    await receiver.reset();
    const workers = createWorkers({ database, clock: systemClock, log, config });
    await workers.start();
    const committed = new Map<string, number>();
    const interval = 1000 / RATE;
    const t0 = wallNow();
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const wait = t0 + i * interval - wallNow();
      if (wait > 0) await sleep(wait);
      const id = `order_${tag}_${i}`;
      await inTx(
        ctx,
        (tctx) =>
          emit(tctx, 'order.placed', { id, total: 1999 } as never) /* a stand-in order: the sender never reads it */,
      );
      committed.set(id, wallNow());
    }
    let stats = await receiver.stats(true);
    while (stats.received < LATENCY_EVENTS) {
      await sleep(20);
      stats = await receiver.stats(true);
    }
    await workers.stop();
    const lat = [...committed].map(([id, at]) => stats.firstArrival![id] - at).sort((a, b) => a - b);
    results.push({
      scenario,
      'commit → first attempt p50 ms': round1(pct(lat, 50)),
      'p99 ms': round1(pct(lat, 99)),
      'max ms': round1(lat[lat.length - 1]),
      'bad signatures': stats.badSignatures,
      'hanging receiver got': stats.hangReceived,
    });
  }

  const loadBefore = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  try {
    // Warm-up (JIT, connection pool, PostgreSQL caches), not reported.
    await throughput('warm-up', 'w', Math.min(N, 1000));
    results.length = 0;
    await throughput('throughput, fast receiver only', 'a');
    await latency(`latency at ${RATE} events/s, fast receiver only`, 'b');
    const hangHook = await createWebhook(ctx, policy, {
      url: receiver.hang,
      events: ['order.*'],
      signing_secret: SECRET,
    });
    await throughput('throughput, + a receiver hanging 30 s', 'c');
    await latency(`latency at ${RATE} events/s, + a receiver hanging 30 s`, 'd');
    await updateWebhook(ctx, policy, hangHook.id, { active: false });

    console.log(
      `\nEmporium webhook benchmark: ${database.kind}, ${N} events for throughput, ${LATENCY_EVENTS} for latency; load average before: ${loadBefore}`,
    );
    console.log('sender defaults: 128 requests in flight, at most 32 per subscription, 30 s timeout\n');
    console.table(results.filter((r) => 'deliveries/s (received)' in r));
    console.table(results.filter((r) => 'p99 ms' in r));
  } finally {
    receiver.child.send({ cmd: 'exit' });
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
