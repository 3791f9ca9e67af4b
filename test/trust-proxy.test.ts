import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './app.ts';

/**
 * TRUST_PROXY behind a proxy that appends to X-Forwarded-For (nginx's $proxy_add_x_forwarded_for,
 * AWS ALB, Cloudflare): the client writes the first entries itself, the proxy adds the address it
 * saw. Over a real socket from 127.0.0.1 (the proxy), on Fastify's path and on the front door's
 * repeats (repeat-reads.ts) alike, a client is counted under the address its proxy saw.
 */
const modes = [
  { name: 'a number of proxies (TRUST_PROXY=1)', trustProxy: '1' },
  { name: 'the proxies listed (TRUST_PROXY=10.0.0.0/8,127.0.0.1)', trustProxy: '10.0.0.0/8,127.0.0.1' },
];
const STOREFRONT_SERVER = '192.0.2.8'; // in RATE_LIMIT_TRUSTED_IPS
const MISS = '/store/regions';
const REPEAT = '/store/products?limit=20';

describe.each(modes)('behind a proxy that appends to X-Forwarded-For, with $name', ({ trustProxy }) => {
  let t: TestApp;
  let base: string;
  let seq = 0;
  const client = () => `203.0.113.${++seq}`;
  const forged = (i: number) => `198.51.100.${i}`;

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        TRUST_PROXY: trustProxy,
        STORE_RATE_LIMIT: '5',
        RATE_LIMIT_TRUSTED_IPS: '192.0.2.0/24',
        LOGIN_MAX_FAILURES_PER_IP: '3',
      },
    });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  /** A request as the proxy passes it on: what the client wrote, then the address the proxy saw. */
  async function viaProxy(url: string, written: string, seen: string, init: RequestInit = {}): Promise<number> {
    const headers = { 'x-publishable-api-key': t.publishableKey, 'x-forwarded-for': `${written}, ${seen}` };
    const res = await fetch(`${base}${url}`, { ...init, headers: { ...headers, ...init.headers } });
    await res.arrayBuffer();
    return res.status;
  }

  /** `n` requests from the client the proxy saw as `seen`, each with another first entry. */
  async function statuses(url: string, seen: string, n: number, written = forged): Promise<number[]> {
    const out = [];
    for (let i = 0; i < n; i++) out.push(await viaProxy(url, written(i), seen));
    return out;
  }

  /** Until the front door answers a repeat of REPEAT (on PostgreSQL a late NOTIFY may start it over once). */
  async function warmFrontDoor() {
    for (let i = 0; i < 5; i++) {
      const ip = client();
      await viaProxy(REPEAT, forged(0), ip);
      const before = t.app.repeatReads.answered;
      await viaProxy(REPEAT, forged(0), ip);
      if (t.app.repeatReads.answered === before + 1) return;
    }
    throw new Error('the front door never answered');
  }

  it('a miss: a client rotating a forged first entry gets 429 after STORE_RATE_LIMIT, the next client its own budget', async () => {
    expect(await statuses(MISS, client(), 7)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await statuses(MISS, client(), 1)).toEqual([200]);
  });

  it('a repeat answered at the front door spends the same budget, whatever the first entry says', async () => {
    await warmFrontDoor();
    const before = t.app.repeatReads.answered;
    expect(await statuses(REPEAT, client(), 6)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(t.app.repeatReads.answered - before).toBe(5); // the 429 comes from Fastify, as every error does
    expect(await statuses(REPEAT, client(), 1)).toEqual([200]);
  });

  it('a forged RATE_LIMIT_TRUSTED_IPS address in the first entry is no exemption; the proxy seeing one is', async () => {
    await warmFrontDoor();
    const claims = () => STOREFRONT_SERVER;
    for (const url of [MISS, REPEAT]) {
      expect(await statuses(url, client(), 6, claims), url).toEqual([200, 200, 200, 200, 200, 429]);
      expect(new Set(await statuses(url, STOREFRONT_SERVER, 20)), url).toEqual(new Set([200]));
    }
  });

  it('customer logins: the per-address limit holds against a forged first entry', async () => {
    let n = 0;
    const login = (seen: string) =>
      viaProxy('/auth/customer/emailpass', forged(++n), seen, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `nobody-${n}@example.com`, password: 'wrong-password-1' }),
      });
    const ip = client();
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await login(ip));
    expect(seen).toEqual([401, 401, 401, 429]);
    expect(await login(client())).toBe(401);
  });

  it.runIf(trustProxy.includes('/'))(
    'skips only the listed proxies: two of them in a row, and not a client reaching the server directly',
    async () => {
      const inject = (remoteAddress: string, xff: string) =>
        t.inject({
          method: 'GET',
          url: MISS,
          remoteAddress,
          headers: { 'x-publishable-api-key': t.publishableKey, 'x-forwarded-for': xff },
        });
      const ip = client();
      const chain = [];
      for (let i = 0; i < 6; i++) chain.push((await inject('10.0.0.2', `${forged(i)}, ${ip}, 10.0.0.9`)).statusCode);
      expect(chain).toEqual([200, 200, 200, 200, 200, 429]);
      expect((await inject('10.0.0.2', `${forged(0)}, ${client()}, 10.0.0.9`)).statusCode).toBe(200);
      // Not from a listed proxy: its own address, whatever it claims.
      const direct = [];
      for (let i = 0; i < 6; i++) direct.push((await inject('203.0.113.250', STOREFRONT_SERVER)).statusCode);
      expect(direct).toEqual([200, 200, 200, 200, 200, 429]);
    },
  );
});
