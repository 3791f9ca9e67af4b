import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeProduct, stockOf } from '../checkout/checkout.testing.ts';

let t: TestApp;
let sdk: Sdk;
let warehouse: string;
let shop: string;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
  warehouse = (await sdk.admin.stockLocation.create({ name: 'Warehouse' })).stock_location.id;
  shop = (await sdk.admin.stockLocation.create({ name: 'Shop' })).stock_location.id;
});
afterAll(() => t.close());

/** A variant selling one item stocked 5 at the warehouse and 2 at the shop. */
async function stockedVariant() {
  const { variant } = await makeProduct(t, { stock: 0 });
  const [link] = await rows<{ id: string }>(
    t.database.db,
    sql`select inventory_item_id as id from product_variant_inventory_items where variant_id = ${variant.id}`,
  );
  // The first location made is the default one, where the variant's item already has a level.
  const { inventory_item: item } = await sdk.admin.inventoryItem.retrieve(link.id);
  const has = new Set(item.location_levels!.map((l) => l.location_id));
  const wanted = [
    { location_id: warehouse, stocked_quantity: 5 },
    { location_id: shop, stocked_quantity: 2 },
  ];
  await sdk.admin.inventoryItem.batchInventoryItemLocationLevels(link.id, {
    create: wanted.filter((l) => !has.has(l.location_id)),
    update: wanted.filter((l) => has.has(l.location_id)),
  });
  return { variantId: variant.id, itemId: link.id };
}

const levelAt = async (itemId: string, location: string) =>
  (await sdk.admin.inventoryItem.retrieve(itemId)).inventory_item.location_levels!.find(
    (l) => l.location_id === location,
  )!;

describe('admin reservations (through the Medusa SDK)', () => {
  it('holds stock at a location, moves it, releases it; the variant sells what is left', async () => {
    const { variantId, itemId } = await stockedVariant();
    expect(await stockOf(t, variantId)).toBe(7);

    const { reservation } = await sdk.admin.reservation.create({
      inventory_item_id: itemId,
      location_id: warehouse,
      quantity: 3,
      description: 'Held for a phone order',
    });
    expect(reservation).toMatchObject({ id: expect.stringMatching(/^resitem_/), quantity: 3, location_id: warehouse });
    expect(await levelAt(itemId, warehouse)).toMatchObject({ reserved_quantity: 3, available_quantity: 2 });
    expect(await stockOf(t, variantId)).toBe(4);

    expect((await sdk.admin.reservation.retrieve(reservation.id)).reservation).toEqual(reservation);
    const listed = await sdk.admin.reservation.list({ inventory_item_id: [itemId] } as never);
    expect(listed.reservations.map((r) => r.id)).toEqual([reservation.id]);

    // To the shop, which has only 2: refused, nothing moves.
    const tooMany = await t.admin('POST', `/admin/reservations/${reservation.id}`, { location_id: shop });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ type: 'not_allowed', code: 'insufficient_inventory' });
    const { reservation: moved } = await sdk.admin.reservation.update(reservation.id, {
      location_id: shop,
      quantity: 2,
    });
    expect(moved).toMatchObject({ location_id: shop, quantity: 2 });
    expect(await levelAt(itemId, warehouse)).toMatchObject({ reserved_quantity: 0 });
    expect(await levelAt(itemId, shop)).toMatchObject({ reserved_quantity: 2, available_quantity: 0 });
    expect(await stockOf(t, variantId)).toBe(5);

    // Reserved stock pins its level and location.
    expect((await t.admin('DELETE', `/admin/inventory-items/${itemId}/location-levels/${shop}`)).statusCode).toBe(400);
    expect((await t.admin('DELETE', `/admin/stock-locations/${shop}`)).statusCode).toBe(400);
    const below = await t.admin('POST', `/admin/inventory-items/${itemId}/location-levels/${shop}`, {
      stocked_quantity: 1,
    });
    expect(below.statusCode).toBe(400);

    expect(await sdk.admin.reservation.delete(reservation.id)).toEqual({
      id: reservation.id,
      object: 'reservation',
      deleted: true,
    });
    expect(await levelAt(itemId, shop)).toMatchObject({ reserved_quantity: 0, available_quantity: 2 });
    expect(await stockOf(t, variantId)).toBe(7);
    expect((await t.admin('GET', `/admin/reservations/${reservation.id}`)).statusCode).toBe(404);
  });

  it('never reserves more than a location has, even when asked at once', async () => {
    const { itemId } = await stockedVariant();
    const asks = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.admin('POST', '/admin/reservations', { inventory_item_id: itemId, location_id: warehouse, quantity: 1 }),
      ),
    );
    expect(asks.filter((r) => r.statusCode === 200)).toHaveLength(5);
    for (const r of asks.filter((x) => x.statusCode !== 200)) expect(r.statusCode, r.body).toBe(400);
    expect(await levelAt(itemId, warehouse)).toMatchObject({ reserved_quantity: 5, available_quantity: 0 });
  });

  it('answers bad input with 4xx', async () => {
    const { itemId } = await stockedVariant();
    const cases: [unknown, number][] = [
      [{ inventory_item_id: itemId, location_id: warehouse, quantity: 0 }, 400],
      [{ inventory_item_id: itemId, location_id: warehouse }, 400],
      [{ inventory_item_id: itemId, location_id: warehouse, quantity: 1, bogus: true }, 400],
      [{ inventory_item_id: 'iitem_nope', location_id: warehouse, quantity: 1 }, 404],
      [{ inventory_item_id: itemId, location_id: 'sloc_nope', quantity: 1 }, 404],
    ];
    for (const [body, status] of cases) {
      const res = await t.admin('POST', '/admin/reservations', body as never);
      expect(res.statusCode, res.body).toBe(status);
    }
    const backorder = await t.admin('POST', '/admin/reservations', {
      inventory_item_id: itemId,
      location_id: shop,
      quantity: 4,
      allow_backorder: true,
    });
    expect(backorder.statusCode).toBe(200);
    expect(await levelAt(itemId, shop)).toMatchObject({ reserved_quantity: 4, available_quantity: -2 });
  });
});
