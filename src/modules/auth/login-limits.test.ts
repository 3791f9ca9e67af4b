import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, TEST_REDIS_URL, startTestApp, type TestApp, anotherApp } from '../../../test/app.ts';
import { createUser } from './service.ts';
import type { App } from '../../platform/http/types.ts';

let t: TestApp;
beforeAll(async () => {
  // The defaults: 20 password checks per email, 10 per address, per 15 minutes.
  t = await startTestApp();
});
afterAll(() => t.close());

let ipSeq = 0;
/** Addresses unique to this file and run (tests and instances may share Redis). */
const freshIp = () => {
  ipSeq++;
  return `198.51.${100 + Math.floor(ipSeq / 250)}.${ipSeq % 250}`;
};

const guess = (app: App, email: string, password: string, ip: string, url = '/auth/user/emailpass') =>
  app.inject({ method: 'POST', url, payload: { email, password }, remoteAddress: ip });

function tally(statuses: number[]) {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe('login limits hold however the guesses arrive', () => {
  it('300 parallel guesses from one address: at most the per-IP budget is checked, the right password among them gets no token', async () => {
    const ip = freshIp();
    const guesses = Array.from({ length: 300 }, (_, i) => (i === 299 ? ADMIN.password : `wrong-${i}`));
    const res = await Promise.all(guesses.map((p) => guess(t.app, ADMIN.email, p, ip)));
    const count = tally(res.map((r) => r.statusCode));
    expect(count[200] ?? 0).toBe(0);
    expect(count[401]).toBeLessThanOrEqual(t.config.loginMaxFailuresPerIp);
    expect(count[429]).toBe(300 - count[401]);
    expect(res.find((r) => r.statusCode === 429)!.headers['retry-after']).toBeDefined();
  });

  it('300 guesses from 300 addresses, 30 at once: one check each; a second round from them is refused', async () => {
    const email = 'spread-target@example.com';
    const ips = Array.from({ length: 300 }, freshIp);
    // Thirty at a time: every one reaches the database now, and a loaded machine's pool would
    // answer 503 to three hundred at once, which says nothing about the limits.
    const round = async (prefix: string) => {
      const statuses: number[] = [];
      for (let i = 0; i < ips.length; i += 30) {
        const res = await Promise.all(
          ips.slice(i, i + 30).map((ip, j) => guess(t.app, email, `${prefix}-${i + j}`, ip)),
        );
        statuses.push(...res.map((r) => r.statusCode));
      }
      return tally(statuses);
    };
    expect(await round('wrong')).toEqual({ 401: 300 });
    expect(await round('again')).toEqual({ 429: 300 });
  });

  it('customer logins too', async () => {
    const email = 'shopper-target@example.com';
    const reg = await t.inject({
      method: 'POST',
      url: '/auth/customer/emailpass/register',
      payload: { email, password: 'shopper-password-1' },
    });
    expect(reg.statusCode).toBe(200);
    const ip = freshIp();
    const guesses = Array.from({ length: 300 }, (_, i) => (i === 299 ? 'shopper-password-1' : `wrong-${i}`));
    const res = await Promise.all(guesses.map((p) => guess(t.app, email, p, ip, '/auth/customer/emailpass')));
    const count = tally(res.map((r) => r.statusCode));
    expect(count[200] ?? 0).toBe(0);
    expect(count[401]).toBeLessThanOrEqual(t.config.loginMaxFailuresPerIp);
  });

  it('a spray from one address trips that address, not the account: the owner still signs in from elsewhere', async () => {
    const owner = { email: 'sprayed-owner@example.com', password: 'owner-password-1' };
    await createUser(t.ctx, { ...owner, role: 'viewer' });
    const attacker = freshIp();
    for (let i = 0; i < 30; i++) await guess(t.app, owner.email, `spray-${i}`, attacker);
    expect((await guess(t.app, owner.email, owner.password, attacker)).statusCode).toBe(429);
    expect((await guess(t.app, owner.email, owner.password, freshIp())).statusCode).toBe(200);
  });

  it('a right password gives its attempt back', async () => {
    const owner = { email: 'steady-owner@example.com', password: 'owner-password-2' };
    await createUser(t.ctx, { ...owner, role: 'viewer' });
    const ip = freshIp();
    for (let i = 0; i < 40; i++) expect((await guess(t.app, owner.email, owner.password, ip)).statusCode).toBe(200);
  });

  it('the counts are shared by instances through Redis', async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, LOGIN_MAX_FAILURES: '6' };
    const apps = [await anotherApp(t, env), await anotherApp(t, env)];
    try {
      const email = 'shared-target@example.com';
      const ips = Array.from({ length: 40 }, freshIp);
      const first = await Promise.all(ips.map((ip, i) => guess(apps[i % 2], email, `wrong-${i}`, ip)));
      expect(tally(first.map((r) => r.statusCode))).toEqual({ 401: 40 });
      // Each address now asks the other instance: it knows the account is under attack and who failed.
      const second = await Promise.all(ips.map((ip, i) => guess(apps[(i + 1) % 2], email, `again-${i}`, ip)));
      expect(tally(second.map((r) => r.statusCode))).toEqual({ 429: 40 });
      // An instance counting alone would have checked it.
      const alone = await anotherApp(t, { LOGIN_MAX_FAILURES: '6' });
      expect((await guess(alone, email, 'wrong', ips[0])).statusCode).toBe(401);
      await alone.close();
    } finally {
      for (const app of apps) await app.close();
    }
  });
});
