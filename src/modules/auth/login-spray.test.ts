import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { createUser } from './service.ts';

/**
 * A stranger spraying wrong passwords at an account must not lock its owner out. The spray
 * comes through a proxy (TRUST_PROXY=1, X-Forwarded-For) from many addresses, and from one,
 * in development (loopback trusted) and in production (nothing trusted): the same limits trip.
 */
const OWNER = { email: 'owner@example.com', password: 'owner-password-9' };
const SHOPPER = { email: 'shopper@example.com', password: 'shopper-password-9' };
const PROXY = '127.0.0.1';

for (const mode of ['development', 'production'] as const) {
  describe(`a spray never locks the owner out (${mode})`, () => {
    let t: TestApp;
    let seq = 0;
    // A different /16 per mode: the two apps may share Redis-free memory, never addresses.
    const freshIp = () => `203.${mode === 'production' ? 1 : 2}.${Math.floor(++seq / 250)}.${seq % 250}`;
    beforeAll(async () => {
      t = await startTestApp({
        env: { TRUST_PROXY: '1', ...(mode === 'production' ? { NODE_ENV: 'production' } : {}) },
      });
      await createUser(t.ctx, { ...OWNER, role: 'admin' });
      const reg = await t.store('POST', '/auth/customer/emailpass/register', SHOPPER);
      expect(reg.statusCode).toBe(200);
    });
    afterAll(() => t.close());

    const login = (who: 'user' | 'customer', email: string, password: string, ip: string) =>
      t.inject({
        method: 'POST',
        url: `/auth/${who}/emailpass`,
        payload: { email, password },
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': ip },
      });

    for (const [who, account] of [
      ['user', OWNER],
      ['customer', SHOPPER],
    ] as const) {
      // Runs first: before the account is under attack from the wide spray below.
      it(`${who}: a spray from one address trips (email, address) first; the owner elsewhere is unaffected`, async () => {
        const attacker = freshIp();
        const res = [];
        for (let i = 0; i < 30; i++) res.push((await login(who, account.email, `spray-${i}`, attacker)).statusCode);
        expect(res.filter((s) => s === 401).length).toBe(t.config.loginMaxFailuresPerEmailIp);
        expect((await login(who, account.email, account.password, attacker)).statusCode).toBe(429);
        expect((await login(who, account.email, account.password, freshIp())).statusCode).toBe(200);
      });

      it(`${who}: 200 guesses from 100 addresses, then the owner from home signs in at once`, async () => {
        const ips = Array.from({ length: 100 }, freshIp);
        const statuses: number[] = [];
        for (let round = 0; round < 2; round++) {
          // Twenty at a time: parallel enough to race the counts, not so many that a loaded
          // machine's database pool times out (a 503 that would say nothing about the limits).
          for (let i = 0; i < ips.length; i += 20) {
            const batch = ips.slice(i, i + 20);
            const res = await Promise.all(
              batch.map((ip, j) => login(who, account.email, `wrong-${round}-${i + j}`, ip)),
            );
            statuses.push(...res.map((r) => r.statusCode));
          }
        }
        // One check per address once the account passed its budget; the rest refused.
        expect(statuses.filter((s) => s === 401).length).toBe(100);
        expect(statuses.filter((s) => s === 429).length).toBe(100);
        const home = await login(who, account.email, account.password, freshIp());
        expect(home.statusCode).toBe(200);
        expect(home.json().token).toBeTruthy();
      });
    }
  });
}
