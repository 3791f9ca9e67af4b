import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../test/app.ts';
import { buildApp } from '../../app.ts';
import type { App } from '../../platform/http/types.ts';
import { MARKETPLACE_ENV } from './marketplace.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ...MARKETPLACE_ENV, MARKETPLACE_RATE_LIMIT: '60' } });
});
afterAll(() => t.close());

/** An address no other run uses, so counters (in Redis too) start at zero. */
const freshIp = () => `fd00::${randomBytes(6).toString('hex').match(/.{4}/g)!.join(':')}`;

const from = (app: App, ip: string, url = '/store/marketplace/keys', headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, remoteAddress: ip, headers });

async function marketplaceApp(env: Record<string, string>): Promise<App> {
  return buildApp({
    database: t.database,
    config: testConfig({ ...MARKETPLACE_ENV, ...env }),
    clock: t.clock,
    logger: false,
  });
}

describe('marketplace rate limit', () => {
  it('allows 60 requests per minute per IP, then answers 429 with Retry-After', async () => {
    const ip = freshIp();
    const urls = [
      '/store/marketplace/keys',
      '/store/marketplace/feed',
      '/store/marketplace/feed/@acme/none',
      '/store/marketplace/download/@acme/none/1.0.0',
    ];
    for (let i = 0; i < 60; i++) {
      const res = await from(t.app, ip, urls[i % urls.length]);
      expect(res.statusCode, `request ${i + 1}`).not.toBe(429);
    }
    const limited = await from(t.app, ip, '/store/marketplace/feed');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      type: 'too_many_requests',
      code: 'too_many_requests',
      message: 'Too many requests, retry later',
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);

    // Another client is unaffected; the admin and the rest of the API are not counted.
    expect((await from(t.app, freshIp())).statusCode).toBe(200);
    const admin = await t.inject({
      method: 'GET',
      url: '/admin/marketplace/items',
      remoteAddress: ip,
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(admin.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/health', remoteAddress: ip })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY=true', async () => {
    const untrusting = await marketplaceApp({ MARKETPLACE_RATE_LIMIT: '2' });
    const trusting = await marketplaceApp({ MARKETPLACE_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
    try {
      const proxy = freshIp();
      const statuses = async (app: App) => {
        const out = [];
        for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
          out.push((await from(app, proxy, undefined, { 'x-forwarded-for': client })).statusCode);
        return out;
      };
      expect(await statuses(untrusting)).toEqual([200, 200, 429]); // one socket address: one client
      expect(await statuses(trusting)).toEqual([200, 200, 200]); // each forwarded client counted alone
      expect((await from(trusting, proxy, undefined, { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(200);
      expect((await from(trusting, proxy, undefined, { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(429);
    } finally {
      await untrusting.close();
      await trusting.close();
    }
  });

  it('shares the count between instances through Redis (REDIS_URL)', async () => {
    const env = { MARKETPLACE_RATE_LIMIT: '5', REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
    const one = await marketplaceApp(env);
    const two = await marketplaceApp(env);
    try {
      const ip = freshIp();
      const seen = [];
      for (let i = 0; i < 6; i++) seen.push((await from(i % 2 ? two : one, ip)).statusCode);
      expect(seen).toEqual([200, 200, 200, 200, 200, 429]);
      const blocked = await from(one, ip);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // An in-memory instance would not have seen the other's requests.
      const alone = await marketplaceApp({ MARKETPLACE_RATE_LIMIT: '5' });
      expect((await from(alone, ip)).statusCode).toBe(200);
      await alone.close();
    } finally {
      await one.close();
      await two.close();
    }
  });
});
