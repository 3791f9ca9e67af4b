import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeCart, makeRegion } from '../checkout/checkout.testing.ts';
import { defaultChannelId, makeProduct, uniq } from './products.testing.ts';

/**
 * Repeats of store reads (platform/http/repeat-reads.ts) over a real socket: a repeat is
 * answered from the bytes kept for it by the route's last onRequest hook. Each case reads twice
 * (the second read is the kept answer, which `answered` proves), then writes, then reads again:
 * an answer kept for an older catalog, key or budget would show here. On PostgreSQL the version
 * comes through the gate.
 */
let t: TestApp;
let base: string;
let channel: string;
let region: { id: string };
let seq = 0;
/** Each case is its own client (TRUST_PROXY: the address comes from X-Forwarded-For), with its own budget. */
const freshIp = () => `198.51.100.${++seq}`;

beforeAll(async () => {
  t = await startTestApp({ env: { STORE_RATE_LIMIT: '30', RATE_LIMIT_TRUSTED_IPS: '', TRUST_PROXY: 'true' } });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  channel = await defaultChannelId(t);
  region = await makeRegion(t, { currency: 'eur' });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${url}`, { headers: { 'x-publishable-api-key': t.publishableKey, ...headers } });

/** Status, headers (without the two that differ per response) and body text. */
async function seen(res: Response) {
  const headers = Object.fromEntries([...res.headers].filter(([k]) => k !== 'date' && k !== 'x-request-id'));
  return { status: res.status, headers, body: await res.text() };
}

/**
 * Reads `url` twice; the second read must be the kept answer, with what the first one got. On
 * PostgreSQL a write's own NOTIFY may still land between the two (the write's answer already
 * started this instance's answers over, catalog-leases.ts) and start them over once more: then
 * the pair is read again. The two reads of a pair must show the same; the caller checks what.
 */
async function twice(url: string, headers: Record<string, string> = {}) {
  for (let pair = 1; ; pair++) {
    const first = await seen(await get(url, headers));
    const before = t.app.repeatReads.answered;
    const second = await seen(await get(url, headers));
    expect(second).toEqual(first);
    if (t.app.repeatReads.answered === before + 1) return JSON.parse(second.body);
    expect(pair, `${url} answered from the kept bytes`).toBeLessThan(5);
  }
}

/** Reads `url` twice and proves neither read was a kept answer. */
async function neverAnswered(url: string, headers: Record<string, string>) {
  const before = t.app.repeatReads.answered;
  for (let i = 0; i < 2; i++) expect((await get(url, headers)).status).toBeLessThan(500);
  expect(t.app.repeatReads.answered, url).toBe(before);
}

const product = () =>
  makeProduct(t, {
    title: `Repeat ${uniq()}`,
    status: 'published',
    sales_channels: [{ id: channel }],
    variants: [{ title: 'one', prices: [{ currency_code: 'eur', amount: 500 }], inventory_quantity: 5 }],
  });

describe('repeats of store reads', () => {
  it('answers a repeat with the same status, headers and bytes the route sent', async () => {
    const p = await product();
    const ip = { 'x-forwarded-for': freshIp() };
    const cases: Record<string, string>[] = [
      ip,
      { ...ip, origin: 'http://localhost:8000' }, // STORE_CORS outside production
      { ...ip, origin: 'https://elsewhere.example' },
      { ...ip, 'x-emporium-amount-units': 'major' },
    ];
    for (const headers of cases) {
      await twice(`/store/products?limit=20&region_id=${region.id}`, headers);
      await twice(`/store/products/${p.id}?fields=*variants`, headers);
    }
    const allowed = await get('/store/products?limit=20', cases[1]);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:8000');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('vary')).toBe('Origin');
    const major = await twice(`/store/products/${p.id}?region_id=${region.id}`, cases[3]);
    expect(major.product.variants[0].calculated_price.calculated_amount).toBe(5);
    // Its own request id is echoed, as Fastify does; without one, every answer gets a new one.
    const echoed = await get('/store/products?limit=20', { ...ip, 'x-request-id': 'req-from-the-edge' });
    expect(echoed.headers.get('x-request-id')).toBe('req-from-the-edge');
    const [a, b] = await Promise.all([get('/store/products?limit=20', ip), get('/store/products?limit=20', ip)]);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it('never answers with what a write has changed: title, price, stock, listing, deletion', async () => {
    const ip = { 'x-forwarded-for': freshIp() };
    const p = await product();
    const detail = `/store/products/${p.id}?region_id=${region.id}`;
    const list = `/store/products?limit=20&id=${p.id}&region_id=${region.id}`;
    const variant = async () => (await twice(detail, ip)).product.variants[0];

    await twice(list, ip);
    await t.admin('POST', `/admin/products/${p.id}`, { title: 'Renamed' });
    expect((await twice(detail, ip)).product.title).toBe('Renamed');
    expect((await twice(list, ip)).products[0].title).toBe('Renamed');

    const repriced = await t.admin('POST', `/admin/products/${p.id}`, {
      variants: [{ id: p.variants[0].id, prices: [{ currency_code: 'eur', amount: 700 }] }],
    });
    expect(repriced.statusCode, repriced.body).toBe(200);
    expect((await variant()).calculated_price.calculated_amount).toBe(700);

    const cart = await makeCart(t, {
      email: 'repeat@example.com',
      region_id: region.id,
      items: [{ variant_id: p.variants[0].id, quantity: 2 }],
    });
    expect((await t.store('POST', `/store/carts/${cart.id}/complete`)).statusCode).toBe(200);
    expect((await variant()).inventory_quantity).toBe(3);

    await t.admin('POST', `/admin/products/${p.id}`, { status: 'draft' });
    expect((await twice(list, ip)).products).toEqual([]);
    expect((await get(detail, ip)).status).toBe(404);
    await t.admin('POST', `/admin/products/${p.id}`, { status: 'published' });
    expect((await twice(list, ip)).count).toBe(1);
    await t.admin('POST', `/admin/sales-channels/${channel}/products`, { remove: [p.id] });
    expect((await twice(list, ip)).count).toBe(0);
    await t.admin('POST', `/admin/sales-channels/${channel}/products`, { add: [p.id] });
    expect((await twice(list, ip)).count).toBe(1);
    await t.admin('DELETE', `/admin/products/${p.id}`);
    expect((await twice(list, ip)).count).toBe(0);
    expect((await get(detail, ip)).status).toBe(404);
  });

  it('never answers for a key that was revoked, or with the channels a key had before', async () => {
    const ip = { 'x-forwarded-for': freshIp() };
    const created = await t.admin('POST', '/admin/api-keys', { title: `k ${uniq()}`, type: 'publishable' });
    const { id, token } = created.json().api_key;
    const sc = (await t.admin('POST', '/admin/sales-channels', { name: `SC ${uniq()}` })).json().sales_channel.id;
    await t.admin('POST', `/admin/api-keys/${id}/sales-channels`, { add: [channel] });
    const p = await product();
    const headers = { ...ip, 'x-publishable-api-key': token };
    const url = `/store/products?limit=20&id=${p.id}`;
    expect((await twice(url, headers)).count).toBe(1);
    await t.admin('POST', `/admin/api-keys/${id}/sales-channels`, { add: [sc], remove: [channel] });
    expect((await twice(url, headers)).count).toBe(0);
    await t.admin('POST', `/admin/api-keys/${id}/revoke`, {});
    const revoked = await get(url, headers);
    expect(revoked.status).toBe(401);
  });

  it('sends sessions, bearer tokens, other methods and large pages the whole way', async () => {
    const ip = { 'x-forwarded-for': freshIp() };
    const url = '/store/products?limit=20';
    await twice(url, ip);
    await neverAnswered(url, { ...ip, cookie: 'connect.sid=whatever' });
    await neverAnswered(url, { ...ip, authorization: 'Bearer not-a-token' });
    await neverAnswered('/store/products?limit=200', ip); // waits for a heavy slot
    await neverAnswered('/store/regions', ip); // not kept by anyone
    await neverAnswered(url, { ...ip, 'x-publishable-api-key': 'pk_unknown' }); // 401 from Fastify
    const before = t.app.repeatReads.answered;
    expect(
      (await fetch(`${base}${url}`, { method: 'HEAD', headers: { ...ip, 'x-publishable-api-key': t.publishableKey } }))
        .status,
    ).toBe(200);
    expect(t.app.repeatReads.answered).toBe(before);
  });

  it('spends the client’s budget like any store request; past it, a 429', async () => {
    const ip = { 'x-forwarded-for': freshIp() };
    const url = '/store/products?limit=20';
    for (let i = 0; i < 30; i++) expect((await get(url, ip)).status, `request ${i}`).toBe(200); // 30 points
    const limited = await get(url, ip);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      type: 'too_many_requests',
      code: 'too_many_requests',
      message: 'Too many requests, retry later',
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await get(url, { 'x-forwarded-for': freshIp() })).status).toBe(200); // someone else
    t.clock.advance(60_000);
    expect((await get(url, ip)).status).toBe(200); // the next minute
  });

  it('answers 503 once the instance drains, as every other request', async () => {
    const ip = { 'x-forwarded-for': freshIp() };
    await twice('/store/products?limit=20', ip);
    await t.app.readiness.drain(1_000);
    const res = await get('/store/products?limit=20', ip);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
  });
});
