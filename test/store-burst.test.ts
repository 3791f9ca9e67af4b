import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChannelId, insertRegion } from '../src/modules/products/products.testing.ts';
import { startTestApp, type TestApp } from './app.ts';

/** Large store pages are expensive: they queue for a few slots per instance, and /health is answered meanwhile. */
let t: TestApp;
let base: string;
let region: string;
beforeAll(async () => {
  t = await startTestApp({ env: { STORE_HEAVY_CONCURRENCY: '1' } });
  region = await insertRegion(t, 'eur');
  const sc = await defaultChannelId(t);
  const variants = ['S', 'M', 'L'].map((title, i) => ({ title, prices: [{ currency_code: 'eur', amount: 100 + i }] }));
  for (let i = 0; i < 8; i++) {
    await Promise.all(
      Array.from({ length: 10 }, (_, j) =>
        t.admin('POST', '/admin/products', {
          title: `Burst ${i}-${j}`,
          status: 'published',
          sales_channels: [{ id: sc }],
          variants,
        }),
      ),
    );
  }
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}, 120_000);
afterAll(() => t.close());

/**
 * Warms a keep-alive connection, says "ready", then asks GET /health one request after another
 * and prints when each came back, until told to stop.
 */
const HEALTH_PROBE = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const get = () => new Promise((resolve) => http.get(process.argv[1], { agent }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); }));
let stop = false;
process.stdin.on('data', () => { stop = true; });
get().then(async () => {
  console.log('ready');
  const answered = [];
  while (!stop) {
    const status = await get();
    answered.push({ status, at: Date.now() });
  }
  console.log(JSON.stringify(answered));
  process.exit(0);
});`;

const heavyUrl = () => `/store/products?limit=1000&region_id=${region}`;

describe('a burst of large store pages', () => {
  it('keeps /health answering while nine run, queued for the one heavy slot', async () => {
    // The probe runs in its own process: a client on this event loop would wait for the burst itself.
    const probe = spawn(process.execPath, ['-e', HEALTH_PROBE, `${base}/health`], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = once(probe, 'exit');
    const lines: string[] = [];
    probe.stdout.setEncoding('utf8').on('data', (d: string) => lines.push(...d.split('\n').filter(Boolean)));
    while (!lines.includes('ready')) await new Promise((r) => setTimeout(r, 10));
    const started = Date.now();
    const burst = await Promise.all(
      Array.from({ length: 9 }, () =>
        t.inject({ method: 'GET', url: heavyUrl(), headers: { 'x-publishable-api-key': t.publishableKey } }),
      ),
    );
    const ended = Date.now();
    probe.stdin.write('stop\n');
    await exited;
    expect(burst.map((r) => r.statusCode)).toEqual(Array(9).fill(200)); // 1 running + 8 queued
    const answered = (JSON.parse(lines.find((l) => l.startsWith('['))!) as { status: number; at: number }[]).filter(
      (a) => a.at > started && a.at < ended,
    );
    // Measured, not asserted as a number (timings vary by machine): health checks kept being answered
    // between the heavy pages; without the slots the burst holds the event loop until it is over.
    const gaps = answered.map((a, i) => a.at - (answered[i - 1]?.at ?? started));
    console.log(
      `${answered.length} health checks answered during a ${ended - started} ms burst; longest wait ${Math.max(0, ...gaps)} ms`,
    );
    expect(answered.every((a) => a.status === 200)).toBe(true);
    expect(answered.length).toBeGreaterThanOrEqual(3);
  });

  it('refuses large pages beyond the queue with 503 and Retry-After, never small ones', async () => {
    const headers = { 'x-publishable-api-key': t.publishableKey };
    const res = await Promise.all([
      ...Array.from({ length: 20 }, () => t.inject({ method: 'GET', url: heavyUrl(), headers })),
      t.inject({ method: 'GET', url: '/store/products?limit=20', headers }),
    ]);
    const statuses = res.map((r) => r.statusCode);
    expect(statuses.slice(0, 17)).toEqual(Array(17).fill(200)); // 1 running + 16 waiting (8 a slot, at least 16)
    expect(statuses.slice(17, 20)).toEqual([503, 503, 503]);
    expect(res[17].json()).toEqual({
      type: 'service_unavailable',
      code: 'too_many_large_pages',
      message: expect.any(String),
    });
    expect(res[17].headers['retry-after']).toBe('1');
    expect(statuses[20]).toBe(200);
  });
});
