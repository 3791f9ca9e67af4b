import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { App } from '../src/platform/http/types.ts';
import { isDatabaseUnavailable } from '../src/platform/db/pg-errors.ts';
import { startTestApp, type TestApp } from './app.ts';

let t: TestApp;
let app: App;
let releaseSlow: (() => void) | undefined;
beforeAll(async () => {
  t = await startTestApp();
  app = await buildApp({ database: t.database, config: t.config, clock: t.clock, logger: false });
  // A request that stays in flight until the test lets it go.
  app.get('/slow-for-test', async () => {
    await new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    return { done: true };
  });
});
afterAll(async () => {
  await app.close();
  await t.close();
});

describe('GET /health and GET /ready', () => {
  it('/ready says what is missing until migrations and workers are up', async () => {
    const res = await app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      type: 'service_unavailable',
      code: 'not_ready',
      message: 'Not ready: migrations not applied, workers not running',
    });
    expect(res.headers['retry-after']).toBeDefined();
    app.readiness.migrated = true;
    app.readiness.workersRunning = true;
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('draining: unready, new requests 503 with Retry-After, /health still 200, in-flight requests finish', async () => {
    const inFlight = app.inject({ method: 'GET', url: '/slow-for-test' });
    while (!releaseSlow) await new Promise((r) => setTimeout(r, 5));
    let drained = false;
    const drain = app.readiness.drain(10_000).then((ok) => {
      drained = ok;
    });
    const fresh = await app.inject({
      method: 'GET',
      url: '/store/regions',
      headers: { 'x-publishable-api-key': t.publishableKey },
    });
    expect(fresh.statusCode).toBe(503);
    expect(fresh.json()).toMatchObject({ type: 'service_unavailable' });
    expect(fresh.headers['retry-after']).toBe('5');
    expect(fresh.headers.connection).toBe('close');
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect(drained).toBe(false);
    releaseSlow();
    const res = await inFlight;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ done: true });
    await drain;
    expect(drained).toBe(true);
  });
});

describe('a database that cannot be reached', () => {
  it('is told apart from other errors (503, not 500)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('Failed query'), { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true); // admin_shutdown
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '57P03' }))).toBe(true); // starting up
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
  });
});
