import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { countRows, defaultChannelId, makeCart, makeProduct, makeRegion, stockOf } from './checkout.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

describe('reservations under a race', () => {
  it('200 shoppers for the last 20 units spread over two locations: exactly 20 sold, every other shopper a 400', async () => {
    const { variant } = await makeProduct(t, { stock: 200 });
    const carts = [];
    for (let batch = 0; batch < 10; batch++)
      carts.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            makeCart(t, { email: `r${batch}-${i}@example.com`, items: [{ variant_id: variant.id, quantity: 1 }] }),
          ),
        )),
      );
    // Only now the stock is cut to 10 at the default location and 10 at a second one serving the
    // channel (adding to a cart checks stock too, and all 200 carts must exist first).
    const created = await t.admin('POST', '/admin/stock-locations', { name: 'Second' });
    const second = created.json().stock_location.id as string;
    const linked = await t.admin('POST', `/admin/stock-locations/${second}/sales-channels`, {
      add: [await defaultChannelId(t)],
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const [{ item }] = await rows<{ item: string }>(
      t.database.db,
      sql`select inventory_item_id as item from product_variant_inventory_items where variant_id = ${variant.id}`,
    );
    const levels = await t.admin('POST', `/admin/inventory-items/${item}/location-levels/batch`, {
      create: [{ location_id: second, stocked_quantity: 10 }],
    });
    expect(levels.statusCode, levels.body).toBe(200);
    await t.database.db.execute(
      sql`update inventory_levels set stocked_quantity = 10 where inventory_item_id = ${item} and location_id <> ${second}`,
    );
    expect(await stockOf(t, variant.id)).toBe(20);

    const results = await Promise.all(carts.map((c) => t.store('POST', `/store/carts/${c.id}/complete`)));

    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(20);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().code).toBe('insufficient_inventory');
    }
    expect(await stockOf(t, variant.id)).toBe(0);
    const held = await rows<{ location_id: string; n: number }>(
      t.database.db,
      sql`select location_id, sum(quantity)::int as n from reservation_items where inventory_item_id = ${item}
          group by location_id order by location_id`,
    );
    expect(held.map((h) => h.n)).toEqual([10, 10]);
    const shelf = await rows<{ stocked: number; reserved: number }>(
      t.database.db,
      sql`select sum(stocked_quantity)::int as stocked, sum(reserved_quantity)::int as reserved
          from inventory_levels where inventory_item_id = ${item}`,
    );
    expect(shelf[0]).toEqual({ stocked: 20, reserved: 20 });
    expect(await countRows(t, 'order_line_items', sql`variant_id = ${variant.id}`)).toBe(20);
  }, 180_000);
});
