import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { App } from '../src/platform/http/types.ts';
import { insertRegion } from '../src/modules/products/products.testing.ts';
import { TEST_REDIS_URL, startTestApp, testConfig, type TestApp } from './app.ts';

let t: TestApp;
let region: string;
beforeAll(async () => {
  t = await startTestApp({ env: { STORE_RATE_LIMIT: '50', REGISTER_RATE_LIMIT: '3' } });
  region = await insertRegion(t, 'eur');
});
afterAll(() => t.close());

let seq = 0;
const freshIp = () => `203.0.113.${++seq}`;
const get = (app: App, url: string, ip: string, key = t.publishableKey) =>
  app.inject({ method: 'GET', url, remoteAddress: ip, headers: { 'x-publishable-api-key': key } });

describe('store rate limit', () => {
  it('gives each client STORE_RATE_LIMIT points a minute, then 429 with Retry-After', async () => {
    const ip = freshIp();
    for (let i = 0; i < 50; i++) expect((await get(t.app, '/store/regions', ip)).statusCode, `request ${i}`).toBe(200);
    const limited = await get(t.app, '/store/regions', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      type: 'too_many_requests',
      code: 'too_many_requests',
      message: 'Too many requests, retry later',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await get(t.app, '/store/regions', freshIp())).statusCode).toBe(200); // someone else
    expect((await t.inject({ method: 'GET', url: '/health', remoteAddress: ip })).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await get(t.app, '/store/regions', ip)).statusCode).toBe(200); // the next minute
  });

  it('charges large pages by size: limit=1000 costs 21 points', async () => {
    const ip = freshIp();
    const big = `/store/products?limit=1000&region_id=${region}`;
    expect((await get(t.app, big, ip)).statusCode).toBe(200);
    expect((await get(t.app, big, ip)).statusCode).toBe(200);
    expect((await get(t.app, big, ip)).statusCode).toBe(429);
    expect((await get(t.app, '/store/products?limit=20', ip)).statusCode).toBe(200); // 42 + 1 … 8 small ones fit
  });

  it('counts requests without a valid key as well', async () => {
    const ip = freshIp();
    for (let i = 0; i < 50; i++) await get(t.app, '/store/regions', ip, 'pk_wrong');
    expect((await get(t.app, '/store/regions', ip)).statusCode).toBe(429);
  });

  it('never limits trusted addresses (loopback outside production, RATE_LIMIT_TRUSTED_IPS)', async () => {
    for (let i = 0; i < 80; i++) expect((await get(t.app, '/store/regions', '127.0.0.1')).statusCode).toBe(200);
    const trusting = await buildApp({
      database: t.database,
      config: testConfig({ STORE_RATE_LIMIT: '5', RATE_LIMIT_TRUSTED_IPS: '192.0.2.0/24' }),
      clock: t.clock,
      logger: false,
    });
    try {
      for (let i = 0; i < 20; i++) expect((await get(trusting, '/store/regions', '192.0.2.7')).statusCode).toBe(200);
      expect((await get(trusting, '/store/regions', '127.0.0.1')).statusCode).toBe(200);
    } finally {
      await trusting.close();
    }
  });

  it('is shared between instances through Redis', async () => {
    // A prefix of its own: the PGlite and PostgreSQL tiers share the machine's Redis.
    const prefix = `emporium-test-${process.pid}-${Date.now()}:`;
    const config = testConfig({ STORE_RATE_LIMIT: '10', REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix });
    const a = await buildApp({ database: t.database, config, clock: t.clock, logger: false });
    const b = await buildApp({ database: t.database, config, clock: t.clock, logger: false });
    const redis = new Redis(TEST_REDIS_URL);
    const ip = freshIp();
    const key = `${prefix}store:${Math.floor(t.clock.now().getTime() / 60_000)}:${ip}`;
    // The counts travel every 250 ms; on a busy machine a timer comes late, so wait for Redis to
    // hold the total, then a moment for the instance that sent it to read the answer.
    const synced = async (total: number) => {
      for (let waited = 0; Number(await redis.get(key)) < total; waited += 50) {
        if (waited > 10_000) throw new Error(`Redis never counted ${total} for ${key}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 100));
    };
    try {
      for (let i = 0; i < 6; i++) expect((await get(a, '/store/regions', ip)).statusCode).toBe(200);
      await synced(6);
      expect((await get(b, '/store/regions', ip)).statusCode).toBe(200); // b spends 1 and learns a's 6
      await synced(7);
      const seen = [];
      for (let i = 0; i < 4; i++) seen.push((await get(b, '/store/regions', ip)).statusCode);
      expect(seen).toEqual([200, 200, 200, 429]);
    } finally {
      redis.disconnect();
      await a.close();
      await b.close();
    }
  });
});

describe('customer registration', () => {
  it('is limited per address (REGISTER_RATE_LIMIT an hour), before any password is hashed', async () => {
    const ip = freshIp();
    const register = (i: number) =>
      t.inject({
        method: 'POST',
        url: '/auth/customer/emailpass/register',
        remoteAddress: ip,
        payload: { email: `reg-${seq}-${i}@example.com`, password: 'register-password-1' },
      });
    for (let i = 0; i < 3; i++) expect((await register(i)).statusCode).toBe(200);
    const limited = await register(3);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
