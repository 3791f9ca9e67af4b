import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChannelId, insertRegion } from '../src/modules/products/products.testing.ts';
import { startTestApp, type TestApp } from './app.ts';

/**
 * No request holds the event loop: while three rounds of ten of the largest store pages the API
 * allows (limit=1000, with prices) run, /health keeps answering. A child process sends the pages
 * (over HTTP, draining each answer as it comes) and asks /health one request after another over
 * keep-alive, timing each; first alone (the baseline), then during the bursts.
 *
 * Two bounds, both robust on a loaded shared machine:
 * - inside the server, the longest stretch between two turns of the event loop, counted in CPU
 *   time of this process (a core's wait for the scheduler does not count, work does): under
 *   TURN_CPU_BOUND_MS;
 * - /health's p99 during the bursts: under 100 ms on a machine of its own. On a shared one every
 *   wait stretches by how long the server waited for a core (its wall time over its CPU time during
 *   the bursts), and the probe's own p99 without bursts (measured first) is added.
 */
const PRODUCTS = Number(process.env.PRODUCTS ?? 1000);
/**
 * A turn's CPU on a loaded 2-core machine: most well under 50 ms, the slowest 75–125 ms (one
 * statement: the page's 1,000 ids, or a slice of 20 documents caught by a collection). A page read
 * in one piece takes a second and more, so this bound still fails whenever a page holds the loop.
 */
// 400, not 200: the process's CPU includes its GC and pool threads, and CI once counted 207 ms for a
// turn that took ~110 ms elsewhere; an unsliced page still counts 1,000 ms and more.
const TURN_CPU_BOUND_MS = 400;

let t: TestApp;
let base: string;
let region: string;
beforeAll(async () => {
  t = await startTestApp();
  region = await insertRegion(t, 'eur');
  const sc = await defaultChannelId(t);
  const variants = ['S', 'M', 'L'].map((title, i) => ({ title, prices: [{ currency_code: 'eur', amount: 100 + i }] }));
  for (let i = 0; i < PRODUCTS; i += 250) {
    const create = Array.from({ length: Math.min(250, PRODUCTS - i) }, (_, j) => ({
      title: `Loop ${i + j}`,
      status: 'published',
      sales_channels: [{ id: sc }],
      variants,
    }));
    const res = await t.admin('POST', '/admin/products/batch', { create });
    expect(res.statusCode).toBe(200);
  }
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}, 600_000);
afterAll(() => t.close());

/** argv: base URL, publishable key, region id. Prints JSON lines: baseline, then the bursts' result. */
const CLIENT = `
const http = require('node:http');
const [base, key, region] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const pages = new http.Agent({ keepAlive: true, maxSockets: 10 });
const get = (url, a, headers = {}) => new Promise((resolve, reject) => {
  http.get(url, { agent: a, headers }, (res) => {
    let bytes = 0; let head = '';
    res.on('data', (c) => { bytes += c.length; if (head.length < 200) head += c.toString('latin1', 0, 200); });
    res.on('end', () => resolve({ status: res.statusCode, bytes, head }));
  }).on('error', reject);
});
async function probe(until) {
  const answered = [];
  while (!until()) {
    const sent = Date.now();
    const { status } = await get(base + '/health', agent);
    answered.push({ status, ms: Date.now() - sent });
  }
  return answered;
}
(async () => {
  await get(base + '/health', agent);
  const t0 = Date.now();
  console.log(JSON.stringify({ baseline: await probe(() => Date.now() - t0 > 2000) }));
  let done = false;
  const bursts = (async () => {
    const statuses = []; let smallest = Infinity;
    for (let round = 0; round < 3; round++) {
      // Distinct offsets: each page is read, none answered from the cache of another.
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) =>
        get(base + '/store/products?limit=1000&offset=' + (round * 10 + i) + '&region_id=' + region, pages, { 'x-publishable-api-key': key })));
      for (const r of burst) { statuses.push(r.status); smallest = Math.min(smallest, r.bytes); }
    }
    done = true;
    return { statuses, smallest };
  })();
  const during = await probe(() => done);
  // Exit once written: stdout to a pipe is asynchronous, and this line is long.
  process.stdout.write(JSON.stringify({ during, ...(await bursts) }) + '\\n', () => process.exit(0));
})();`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/**
 * While it runs: the longest CPU stretch between two turns of this process's event loop (ms), and
 * how much longer the wall clock ran than this process's CPU (1 when it had a core to itself).
 */
function loopTurns() {
  let top: number[] = []; // the five longest turns, longest first
  let stopped = false;
  const start = { cpu: process.cpuUsage(), wall: performance.now() };
  let last = start.cpu;
  const tick = () => {
    const now = process.cpuUsage();
    const turn = cpuMs(now) - cpuMs(last);
    if (top.length < 5 || turn > top[4]) top = [...top, turn].sort((a, b) => b - a).slice(0, 5);
    last = now;
    if (!stopped) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      stopped = true;
      const cpu = cpuMs(process.cpuUsage()) - cpuMs(start.cpu);
      return {
        longest: top[0],
        top: top.map(Math.round),
        stretch: Math.max(1, (performance.now() - start.wall) / cpu),
      };
    },
  };
}

describe('bursts of the largest store pages', () => {
  it('leave the event loop turning: /health answers within 100 ms (stretched by a busy machine)', async () => {
    const child = spawn(process.execPath, ['-e', CLIENT, base, t.publishableKey, region], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    while (!out.includes('\n')) {
      if (child.exitCode !== null) throw new Error(`the client exited (${child.exitCode}) before its baseline`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const turns = loopTurns();
    await exited;
    const { longest: longestTurn, top, stretch } = turns.stop();
    const lines = out.split('\n').filter(Boolean);
    const baseline = (JSON.parse(lines[0]).baseline as { ms: number }[]).map((a) => a.ms);
    const result = JSON.parse(lines[1]) as {
      during: { status: number; ms: number }[];
      statuses: number[];
      smallest: number;
    };
    const ms = result.during.map((a) => a.ms);
    const p99 = percentile(ms, 99);
    const baseP99 = percentile(baseline, 99);
    // The machine's other work stretches every wait alike: 100 ms of our own work, as long as it took.
    const bound = Math.round(100 * stretch) + baseP99;
    console.log(
      `/health alone: p99 ${baseP99} ms (${baseline.length} answers); during 3 bursts of 10 × limit=1000: ${ms.length} answers, p50 ${percentile(ms, 50)} ms, p99 ${p99} ms, max ${Math.max(...ms)} ms (bound ${bound} ms: wall/CPU ${stretch.toFixed(2)}); longest loop turns ${top.join(', ')} ms of CPU`,
    );
    expect(result.statuses).toEqual(Array(30).fill(200));
    // Every page whole: 1,000 products of three priced variants (~5 MB).
    expect(result.smallest).toBeGreaterThan(PRODUCTS * 1000);
    expect(result.during.every((a) => a.status === 200)).toBe(true);
    expect(ms.length).toBeGreaterThanOrEqual(20);
    expect(longestTurn).toBeLessThan(TURN_CPU_BOUND_MS);
    expect(p99).toBeLessThan(bound);
  }, 600_000);
});
