import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { countRows, makeCart, makeProduct, makeRegion, stockOf } from './checkout.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

const complete = (cartId: string) => t.store('POST', `/store/carts/${cartId}/complete`);
const inCarts = (ids: string[]) => sql`cart_id = any(${sql.param(ids)}::text[])`;

describe('no overselling', () => {
  it('200 concurrent checkouts of 1 unit against 10 in stock: 10 orders, stock 0, 190 × insufficient_inventory, nothing else written', async () => {
    const { variant } = await makeProduct(t, { stock: 200 });
    const carts: string[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const made = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          makeCart(t, { email: `c${batch}-${i}@example.com`, items: [{ variant_id: variant.id, quantity: 1 }] }),
        ),
      );
      carts.push(...made.map((c) => c.id));
    }
    // Stock is cut to 10 only now: adding to a cart checks stock too, and all 200 carts must exist first.
    await t.database.db.execute(sql`update product_variants set inventory_quantity = 10 where id = ${variant.id}`);

    const results = await Promise.all(carts.map((id) => complete(id)));

    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(190);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toEqual({
        type: 'not_allowed',
        code: 'insufficient_inventory',
        message: 'Some variant does not have the required inventory',
      });
    }
    expect(await stockOf(t, variant.id)).toBe(0);
    expect(await countRows(t, 'orders', inCarts(carts))).toBe(10);
    expect(await countRows(t, 'order_line_items', sql`variant_id = ${variant.id}`)).toBe(10);
    const orderIds = ok.map((r) => r.json().order.id);
    expect(new Set(orderIds).size).toBe(10);
    expect(await countRows(t, 'payments', sql`order_id = any(${sql.param(orderIds)}::text[])`)).toBe(10);
    expect(await countRows(t, 'payments', sql`true`)).toBe(10);
    const [pcs] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from payment_collections where ${inCarts(carts)}`,
    );
    expect(pcs.n).toBe(10);
    const completed = await rows<{ id: string }>(
      t.database.db,
      sql`select id from carts where completed_at is not null and id = any(${sql.param(carts)}::text[])`,
    );
    expect(completed.map((c) => c.id).sort()).toEqual(ok.map((r) => r.json().order.cart_id).sort());
    const placed = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from outbox where name = 'order.placed'`,
    );
    expect(placed[0].n).toBe(10);
  }, 120_000); // 400 checkout requests: on PGlite (one session) and a busy CI machine this takes a while

  it('a shortfall on any line rolls the whole checkout back: no order, payment or stock change', async () => {
    const plenty = (await makeProduct(t, { stock: 5 })).variant;
    const scarce = (await makeProduct(t, { stock: 2 })).variant;
    const cart = await makeCart(t, {
      email: 'x@example.com',
      items: [
        { variant_id: plenty.id, quantity: 3 },
        { variant_id: scarce.id, quantity: 2 },
      ],
    });
    await t.database.db.execute(sql`update product_variants set inventory_quantity = 1 where id = ${scarce.id}`);
    const res = await complete(cart.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('insufficient_inventory');
    expect(await stockOf(t, plenty.id)).toBe(5);
    expect(await stockOf(t, scarce.id)).toBe(1);
    expect(await countRows(t, 'orders', sql`cart_id = ${cart.id}`)).toBe(0);
    expect((await t.store('GET', `/store/carts/${cart.id}`)).json().cart).toMatchObject({
      completed_at: null,
      payment_collection: null,
    });
  });

  it('backorders and unmanaged stock never block, and only managed stock moves', async () => {
    const backorder = (await makeProduct(t, { stock: 1, allow_backorder: true })).variant;
    const unmanaged = (await makeProduct(t, { stock: 0, manage_inventory: false })).variant;
    const cart = await makeCart(t, {
      email: 'b@example.com',
      items: [
        { variant_id: backorder.id, quantity: 3 },
        { variant_id: unmanaged.id, quantity: 4 },
      ],
    });
    const res = await complete(cart.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(await stockOf(t, backorder.id)).toBe(-2);
    expect(await stockOf(t, unmanaged.id)).toBe(0);
    const reserved = await rows<{ variant_id: string; reserved_quantity: number }>(
      t.database.db,
      sql`select variant_id, reserved_quantity from order_line_items where order_id = ${res.json().order.id} order by variant_id`,
    );
    expect(Object.fromEntries(reserved.map((r) => [r.variant_id, r.reserved_quantity]))).toEqual({
      [backorder.id]: 3,
      [unmanaged.id]: 0,
    });
  });

  it('two concurrent completes of one cart make one order, both answers name it', async () => {
    const { variant } = await makeProduct(t, { stock: 5 });
    const cart = await makeCart(t, { email: 'twice@example.com', items: [{ variant_id: variant.id, quantity: 1 }] });
    const [a, b] = await Promise.all([complete(cart.id), complete(cart.id)]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(a.json().order.id).toBe(b.json().order.id);
    expect(await countRows(t, 'orders', sql`cart_id = ${cart.id}`)).toBe(1);
    expect(await countRows(t, 'payments', sql`order_id = ${a.json().order.id}`)).toBe(1);
    expect(await stockOf(t, variant.id)).toBe(4);
  });
});
