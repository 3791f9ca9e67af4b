import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { statementsOf } from '../../../test/statements.ts';
import { BatchProductsResponse } from './schema.ts';
import { batchItem, defaultChannelId, expectSchema, outboxEvents, uniq } from './products.testing.ts';

/**
 * `POST /admin/products/batch`'s updates go through updateProductsIn (bulk-update.ts): the
 * products named change and no other, one unknown id refuses the batch with nothing written, a
 * product named twice changes twice in order, and the statements sent do not grow with the
 * number of updates.
 */
let t: TestApp;
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
}, 300_000);
afterAll(() => t.close());

type Product = { id: string; title: string; variants: { id: string; sku: string }[] };

const batch = (body: Record<string, unknown>) => t.admin('POST', '/admin/products/batch', body);

/** `n` published products with two priced, stocked variants each, made by one batch. */
async function seed(n: number): Promise<Product[]> {
  const create = Array.from({ length: n }, () => batchItem(channel, `Upd ${uniq()}`));
  const res = await batch({ create });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().created;
}

/** A new title, the first variant's stock and price changed. */
const change = (p: Product, tag: string) => ({
  id: p.id,
  title: `${p.title} ${tag}`,
  variants: [
    { id: p.variants[0].id, inventory_quantity: 7, prices: [{ currency_code: 'eur', amount: 2500 }] },
    { id: p.variants[1].id },
  ],
});

const adminJson = async (id: string) => {
  const res = await t.admin('GET', `/admin/products/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product;
};
const updatedEvents = async (id: string) =>
  (await outboxEvents(t, id)).filter((e) => e.name === 'product.updated').map((e) => e.payload);

describe('POST /admin/products/batch updates', () => {
  it('changes exactly the products it names, answering and emitting each as the single route does', async () => {
    const products = await seed(6);
    const [named, untouched] = [products.slice(0, 4), products.slice(4)];
    const before = await Promise.all(untouched.map((p) => adminJson(p.id)));
    // Not in id order: the answer follows the request.
    const order = [named[2], named[0], named[3], named[1]];
    const res = await batch({ update: order.map((p) => change(p, 'new')) });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectSchema(BatchProductsResponse, body);
    expect(body.created).toEqual([]);
    expect(body.updated.map((p: Product) => p.id)).toEqual(order.map((p) => p.id));
    for (const [i, p] of order.entries()) {
      const after = await adminJson(p.id);
      expect(body.updated[i]).toEqual(after);
      expect(after.title).toBe(`${p.title} new`);
      const first = after.variants.find((v: { id: string }) => v.id === p.variants[0].id);
      expect(first.inventory_quantity).toBe(7);
      expect(first.prices.map((x: { amount: number }) => x.amount)).toEqual([2500]);
      expect(after.variants).toHaveLength(2);
      expect(await updatedEvents(p.id)).toEqual([after]);
      const store = await t.store('GET', `/store/products/${p.id}`);
      expect(store.json().product.title).toBe(`${p.title} new`);
    }
    for (const [i, p] of untouched.entries()) {
      expect(await adminJson(p.id)).toEqual(before[i]);
      expect(await updatedEvents(p.id)).toEqual([]);
    }
  }, 120_000);

  it('writes nothing when one id is unknown, and answers its code', async () => {
    const products = await seed(3);
    const before = await Promise.all(products.map((p) => adminJson(p.id)));
    const events = (await outboxEvents(t)).length;
    const res = await batch({
      update: [change(products[0], 'x'), { id: 'prod_nope', title: 'x' }, change(products[1], 'x')],
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({
      type: 'not_found',
      code: 'product_not_found',
      message: 'Product with id: prod_nope was not found',
    });
    for (const [i, p] of products.entries()) expect(await adminJson(p.id)).toEqual(before[i]);
    expect((await outboxEvents(t)).length).toBe(events);
  }, 120_000);

  it('changes a product named twice twice, in the request’s order', async () => {
    const [p, q] = await seed(2);
    const res = await batch({
      update: [
        { id: p.id, title: 'First' },
        { id: q.id, subtitle: 'Other' },
        { id: p.id, subtitle: 'Second' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [first, other, second] = res.json().updated;
    expect(first).toMatchObject({ id: p.id, title: 'First', subtitle: null });
    expect(other).toMatchObject({ id: q.id, subtitle: 'Other' });
    expect(second).toMatchObject({ id: p.id, title: 'First', subtitle: 'Second' });
    expect(second).toEqual(await adminJson(p.id));
    expect(await updatedEvents(p.id)).toEqual([first, second]);
  }, 120_000);

  it('sends as many statements for 25 updates as for 3', async () => {
    const products = await seed(25);
    // Each run sets the same values again, so the three runs statementsOf makes are alike.
    const run = (n: number) => async () => {
      const res = await batch({ update: products.slice(0, n).map((p) => change(p, 'again')) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().updated.length;
    };
    const few = await statementsOf(t.database, run(3));
    const many = await statementsOf(t.database, run(25));
    expect([few.result, many.result]).toEqual([3, 25]);
    // PostgreSQL: the catalog's read lease is renewed by a statement every 300 ms
    // (catalog-leases.ts), which a slower run may count once or twice more.
    if (t.database.kind === 'postgres') expect(many.statements).toBeLessThanOrEqual(few.statements + 4);
    else expect(many.statements).toBe(few.statements);
    // One product at a time sent some twenty statements per product.
    expect(few.statements).toBeLessThan(60);
  }, 120_000);
});
