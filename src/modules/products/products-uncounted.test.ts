import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { AdminProductList } from './schema.ts';
import { expectSchema, makeProduct, uniq } from './products.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ids = (body: { products: { id: string }[] }) => body.products.map((p) => p.id);

describe('GET /admin/products?count=false', () => {
  it('answers the same page with count null, for filters and a search alike', async () => {
    // Products name only collections that exist: make one for the filter.
    const created = await t.admin('POST', '/admin/collections', { title: `Lamps ${uniq()}` });
    expect(created.statusCode, created.body).toBe(200);
    const col: string = created.json().collection.id;
    const tag = uniq();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await makeProduct(t, { collection_id: col, title: `Lamp ${tag} ${i}` }));
    await t.admin('DELETE', `/admin/products/${made[1].id}`);
    const page = async (qs: string) => {
      const res = await t.admin('GET', `/admin/products?collection_id=${col}&count=false&${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const first = await page('limit=1');
    expectSchema(AdminProductList, first);
    expect(first).toMatchObject({ count: null, limit: 1, offset: 0 });
    expect(ids(first)).toEqual([made[0].id]);
    // limit + 1 probing: two rows back means there is a next page, the deleted product never shows.
    expect(ids(await page('limit=2'))).toEqual([made[0].id, made[2].id]);
    expect(ids(await page('limit=2&offset=1'))).toEqual([made[2].id]);
    expect(ids(await page(`q=${tag.toUpperCase()}%202`))).toEqual([made[2].id]);
    expect(await page('offset=10')).toEqual({ products: [], count: null, limit: 50, offset: 10 });
    const counted = (await t.admin('GET', `/admin/products?collection_id=${col}&count=true`)).json();
    expect(counted.count).toBe(2);
    expect((await t.admin('GET', '/admin/products?count=maybe')).statusCode).toBe(400);
  });
});
