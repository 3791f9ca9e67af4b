import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { defaultChannelId, insertRegion, uniq } from './products.testing.ts';

/**
 * `GET /store/product-variants` on a catalog of several products with many variants: pages in
 * SQL (count, limit, offset over `product_id, variant_rank, id`), each variant as the variant's own
 * route shows it, in a bounded number of statements, and at the rate cost of its rows.
 */
let t: TestApp;
let region: string;
const PRODUCTS = 4;
const VARIANTS = 30;
/** Every visible variant id, in the order the list promises. */
let expected: string[];
/** The products' ids, in order. */
let productIds: string[];
let seq = 0;
/** A client address of its own per case (TRUST_PROXY): each has its own rate budget. */
const client = () => ({ headers: { 'x-forwarded-for': `203.0.113.${++seq}` } });

beforeAll(async () => {
  t = await startTestApp({ env: { STORE_RATE_LIMIT: '30', RATE_LIMIT_TRUSTED_IPS: '', TRUST_PROXY: 'true' } });
  const channel = await defaultChannelId(t);
  region = await insertRegion(t, 'eur');
  const create = Array.from({ length: PRODUCTS }, (_, p) => ({
    title: `Variants ${uniq()}`,
    status: 'published',
    sales_channels: [{ id: channel }],
    options: [{ title: 'Size', values: Array.from({ length: VARIANTS }, (_, i) => `S${i}`) }],
    // Ranks run against titles, so the order is the rank's, not the id's or the title's.
    variants: Array.from({ length: VARIANTS }, (_, i) => ({
      title: `v${i}`,
      variant_rank: VARIANTS - i,
      options: { Size: `S${i}` },
      inventory_quantity: p * 100 + i,
      prices: i % 3 ? [{ currency_code: 'eur', amount: 1000 + i }] : [],
    })),
  }));
  const res = await t.admin('POST', '/admin/products/batch', { create });
  expect(res.statusCode, res.body).toBe(200);
  const products = (res.json().created as { id: string; variants: { id: string; variant_rank: number }[] }[]).sort(
    (a, b) => (a.id < b.id ? -1 : 1),
  );
  productIds = products.map((p) => p.id);
  expected = products.flatMap((p) =>
    [...p.variants].sort((a, b) => a.variant_rank - b.variant_rank || (a.id < b.id ? -1 : 1)).map((v) => v.id),
  );
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await t.store('GET', `/store/product-variants?${query}`, undefined, client());
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { variants: { id: string }[]; count: number; limit: number; offset: number };
};

describe('store product variants on a larger catalog', () => {
  it('pages with count, limit and offset in the promised order, each variant as its own route shows it', async () => {
    const total = PRODUCTS * VARIANTS;
    for (const regionQuery of ['', `&region_id=${region}`]) {
      const seen: { id: string }[] = [];
      for (let offset = 0; offset < total + 25; offset += 25) {
        const page = await list(`limit=25&offset=${offset}${regionQuery}`);
        expect({ count: page.count, limit: page.limit, offset: page.offset }).toEqual({
          count: total,
          limit: 25,
          offset,
        });
        expect(page.variants.length).toBe(Math.max(0, Math.min(25, total - offset)));
        seen.push(...page.variants);
      }
      expect(seen.map((v) => v.id)).toEqual(expected);
      // The same as before, where each was read by itself: the variant's route (the full builder).
      for (const i of [0, 1, 29, 30, 31, 77, total - 1]) {
        const one = await t.store(
          'GET',
          `/store/product-variants/${expected[i]}?${regionQuery.slice(1)}`,
          undefined,
          client(),
        );
        expect(seen[i]).toEqual(one.json().variant);
      }
    }
    const byProduct = await list(`product_id=${productIds[1]}&limit=10&offset=25`);
    expect(byProduct.count).toBe(VARIANTS);
    expect(byProduct.variants.map((v) => v.id)).toEqual(expected.slice(VARIANTS + 25, 2 * VARIANTS));
    const ids = [expected[95], expected[3], expected[60], 'variant_nope'];
    const byId = await list(`${ids.map((id) => `id[]=${id}`).join('&')}&limit=2&offset=1`);
    expect(byId.count).toBe(3);
    expect(byId.variants.map((v) => v.id)).toEqual([expected[60], expected[95]]);
    const unknownRegion = await t.store('GET', '/store/product-variants?region_id=reg_nope', undefined, client());
    expect(unknownRegion.statusCode).toBe(400);
  });

  it('reads a page of any size in a bounded number of statements', async () => {
    const client0 = (t.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const spy = vi.spyOn(client0, 'query');
    try {
      for (const limit of [10, 100, 1000]) {
        spy.mockClear();
        const page = await list(`limit=${limit}&region_id=${region}`);
        expect(page.variants.length).toBe(Math.min(limit, expected.length));
        expect(spy.mock.calls.length, `limit=${limit}`).toBeLessThanOrEqual(3);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('costs the rate budget per row asked for, as the product list does (limit=1000: 21 points)', async () => {
    const headers = client();
    const at = (query: string) => t.store('GET', `/store/product-variants?${query}`, undefined, headers);
    expect((await at('limit=1000')).statusCode).toBe(200); // 21 of 30
    expect((await at('limit=400')).statusCode).toBe(200); // 9: 30 of 30
    expect((await at('limit=1')).statusCode).toBe(429);
  });
});
