import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Load, load } from './client.ts';
import { call, waitFor200 } from './lib.ts';

/**
 * The bare Fastify reference in its own process (as the server is): a constant body of `body`'s
 * size; the same load as the store list.
 */
export async function referenceLoad(
  body: Buffer,
  port: number,
  opts: { connections: number; seconds: number },
): Promise<Load> {
  const file = path.join(tmpdir(), `emporium-bench-body-${process.pid}.json`);
  writeFileSync(file, body);
  const proc = spawn(process.execPath, [path.join(import.meta.dirname, 'reference-server.mjs')], {
    env: { ...process.env, BODY_FILE: file, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    const url = `http://127.0.0.1:${port}/store/products`;
    await waitFor200(url, performance.now(), { deadlineMs: 30_000 });
    return await load(url, {}, opts);
  } finally {
    proc.kill('SIGTERM');
    rmSync(file, { force: true });
  }
}

/** The `p`th percentile of ascending `sorted` (the nearest rank at or above it). */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** The median of unsorted `xs` (a start figure). */
export const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/**
 * The three-call storefront flow, one shopper after another: POST /store/carts {email} →
 * POST /store/carts/{id}/line-items → POST /store/carts/{id}/complete. Median and p95 of `flows`.
 */
export async function checkoutSequential(
  base: string,
  key: string,
  variantIds: string[],
  flows: number,
): Promise<{ 'median ms': number; 'p95 ms': number }> {
  const store = { 'x-publishable-api-key': key };
  const times: number[] = [];
  for (let i = -10; i < flows; i++) {
    const start = performance.now();
    const { json } = await call(base, 'POST', '/store/carts', store, { email: `shopper${i}@example.com` });
    const variant_id = variantIds[(i + 10) % variantIds.length];
    await call(base, 'POST', `/store/carts/${json.cart.id}/line-items`, store, { variant_id, quantity: 1 });
    const done = await call(base, 'POST', `/store/carts/${json.cart.id}/complete`, store);
    if (done.status !== 200) throw new Error(`completion answered ${done.status}: ${JSON.stringify(done.json)}`);
    if (i >= 0) times.push(performance.now() - start); // the first ten warm up
  }
  times.sort((a, b) => a - b);
  return { 'median ms': +percentile(times, 50).toFixed(1), 'p95 ms': +percentile(times, 95).toFixed(1) };
}

/**
 * One request after another, each to a URL of its own (`urlOf(i)`), so no answer cache can serve
 * it: what a search costs the first time it is asked. p50 and p99 of `count` after five to warm up.
 */
export async function sequentialMisses(
  base: string,
  urlOf: (i: number) => string,
  headers: Record<string, string>,
  count: number,
): Promise<{ 'p50 ms': number; 'p99 ms': number }> {
  const times: number[] = [];
  for (let i = -5; i < count; i++) {
    const start = performance.now();
    const res = await call(base, 'GET', urlOf(i + 5), headers);
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.json)}`);
    if (i >= 0) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { 'p50 ms': +percentile(times, 50).toFixed(1), 'p99 ms': +percentile(times, 99).toFixed(1) };
}
