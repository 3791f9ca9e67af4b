import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { defaultChannelId, uniq } from './products.testing.ts';

/**
 * The answer cache (store-cache.ts) under one client reading many large distinct pages: the page
 * every other client reads stays kept. Over a socket, so a kept answer shows as a repeat's
 * (repeat-reads.ts, `answered`), which hands out only what the cache still holds.
 */
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const channel = await defaultChannelId(t);
  // 60 products of ~17 kB: a page of 50 is ~0.9 MB, under an eighth of the 8 MB budget, and ten
  // such pages are more than the whole budget.
  const create = Array.from({ length: 60 }, () => ({
    title: `Large ${uniq()}`,
    status: 'published',
    description: `${uniq()} `.repeat(1_900),
    sales_channels: [{ id: channel }],
  }));
  const res = await t.admin('POST', '/admin/products/batch', { create });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await fetch(`${base}${url}`, { headers: { 'x-publishable-api-key': t.publishableKey } });
  expect(res.status).toBe(200);
  return res.arrayBuffer();
};

/** Whether a read of `url` was answered from what the cache kept (a repeat's answer). */
async function kept(url: string): Promise<boolean> {
  const before = t.app.repeatReads.answered;
  await get(url);
  return t.app.repeatReads.answered === before + 1;
}

describe('the store answer cache', () => {
  it('keeps a hot page while one client reads ten large distinct pages', async () => {
    const hot = '/store/products?limit=5';
    // Kept once read (on PostgreSQL the batch's own NOTIFY may still start the answers over once).
    for (let i = 0; !(await kept(hot)); i++) expect(i, 'the hot page is kept').toBeLessThan(5);
    for (let k = 0; k < 10; k++) {
      const large = await get(`/store/products?limit=50&offset=${k}`);
      expect(large.byteLength).toBeGreaterThan(850_000);
      expect(large.byteLength).toBeLessThan(1_048_576);
      expect(await kept(hot), `the hot page after large page ${k}`).toBe(true);
    }
  });
});
