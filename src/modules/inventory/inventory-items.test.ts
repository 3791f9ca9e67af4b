import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { uniq } from '../products/products.testing.ts';

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

const levelsByLocation = (item: { location_levels?: { location_id: string }[] }) =>
  Object.fromEntries((item.location_levels ?? []).map((l) => [l.location_id, l]));

describe('admin inventory items (through the Medusa SDK)', () => {
  it('creates an item with levels at two locations, reads, lists, updates and deletes it', async () => {
    const sku = `MUG-${uniq()}`;
    const { inventory_item: item } = await sdk.admin.inventoryItem.create({
      sku,
      title: 'Mug',
      weight: 350,
      origin_country: 'PT',
      requires_shipping: true,
      location_levels: [
        { location_id: warehouse, stocked_quantity: 12, incoming_quantity: 4 },
        { location_id: shop, stocked_quantity: 3 },
      ],
    } as never);
    expect(item.id).toMatch(/^iitem_[0-9A-Z]{26}$/);
    expect(item).toMatchObject({ sku, title: 'Mug', weight: 350, origin_country: 'pt', requires_shipping: true });
    expect(item).toMatchObject({ stocked_quantity: 15, reserved_quantity: 0 });
    expect(levelsByLocation(item)[warehouse]).toMatchObject({
      id: expect.stringMatching(/^ilev_/),
      stocked_quantity: 12,
      reserved_quantity: 0,
      incoming_quantity: 4,
      available_quantity: 12,
    });

    expect((await sdk.admin.inventoryItem.retrieve(item.id)).inventory_item).toEqual(item);
    const bySku = await sdk.admin.inventoryItem.list({ sku });
    expect(bySku.inventory_items.map((i) => i.id)).toEqual([item.id]);
    const byLocation = await sdk.admin.inventoryItem.list({
      q: sku,
      location_levels: { location_id: [shop] },
    } as never);
    expect(byLocation.count).toBe(1);

    const { inventory_item: renamed } = await sdk.admin.inventoryItem.update(item.id, { title: 'Big mug', width: 9 });
    expect(renamed).toMatchObject({ title: 'Big mug', width: 9, sku });

    const taken = await t.admin('POST', '/admin/inventory-items', { sku });
    expect(taken.statusCode).toBe(400);

    expect(await sdk.admin.inventoryItem.delete(item.id)).toEqual({
      id: item.id,
      object: 'inventory_item',
      deleted: true,
    });
    expect((await t.admin('GET', `/admin/inventory-items/${item.id}`)).statusCode).toBe(404);
    // Its SKU is free again once it is gone.
    expect((await t.admin('POST', '/admin/inventory-items', { sku })).statusCode).toBe(200);
  });

  it('manages levels: list, add, update, batch (all or nothing), remove', async () => {
    const { inventory_item: item } = await sdk.admin.inventoryItem.create({ title: 'Lamp' });
    expect(item.location_levels).toEqual([]);
    await sdk.admin.inventoryItem.batchInventoryItemLocationLevels(item.id, {
      create: [{ location_id: warehouse, stocked_quantity: 5 }],
    });
    const { inventory_item: two } = await t
      .admin('POST', `/admin/inventory-items/${item.id}/location-levels`, { location_id: shop, stocked_quantity: 1 })
      .then((r) => r.json());
    expect(two.stocked_quantity).toBe(6);

    const { inventory_item: updated } = await sdk.admin.inventoryItem.updateLevel(item.id, shop, {
      stocked_quantity: 2,
      incoming_quantity: 7,
    });
    expect(levelsByLocation(updated)[shop]).toMatchObject({ stocked_quantity: 2, incoming_quantity: 7 });

    const levels = await sdk.admin.inventoryItem.listLevels(item.id, { location_id: [warehouse] } as never);
    expect(levels.inventory_levels.map((l) => l.location_id)).toEqual([warehouse]);
    expect(levels.count).toBe(1);

    // Removing a level that holds stock needs `force`; the failed batch changes nothing.
    const refused = await t.admin('POST', `/admin/inventory-items/${item.id}/location-levels/batch`, {
      update: [{ location_id: warehouse, stocked_quantity: 50 }],
      delete: [shop],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ type: 'not_allowed' });
    expect((await sdk.admin.inventoryItem.retrieve(item.id)).inventory_item.stocked_quantity).toBe(7);

    const batch = await sdk.admin.inventoryItem.batchInventoryItemLocationLevels(item.id, {
      update: [{ location_id: warehouse, stocked_quantity: 50 }],
      delete: [shop],
      force: true,
    });
    expect(batch.updated?.[0]).toMatchObject({ location_id: warehouse, stocked_quantity: 50 });
    expect(batch.deleted).toHaveLength(1);
    expect(batch.created).toEqual([]);

    const removed = await sdk.admin.inventoryItem.deleteLevel(item.id, warehouse);
    expect(removed).toMatchObject({ object: 'inventory-level', deleted: true, parent: { id: item.id } });
    expect((await sdk.admin.inventoryItem.retrieve(item.id)).inventory_item.location_levels).toEqual([]);
  });

  it('batches levels of several items at once, all or nothing', async () => {
    const { inventory_item: a } = await sdk.admin.inventoryItem.create({
      title: 'A',
      location_levels: [{ location_id: warehouse, stocked_quantity: 1 }],
    } as never);
    const { inventory_item: b } = await sdk.admin.inventoryItem.create({ title: 'B' });
    const aLevel = a.location_levels![0].id;
    const failed = await t.admin('POST', '/admin/inventory-items/location-levels/batch', {
      create: [{ inventory_item_id: b.id, location_id: shop, stocked_quantity: 4 }],
      delete: ['ilev_nope'],
    });
    expect(failed.statusCode).toBe(404);
    expect((await sdk.admin.inventoryItem.retrieve(b.id)).inventory_item.location_levels).toEqual([]);

    const done = await sdk.admin.inventoryItem.batchInventoryItemsLocationLevels({
      create: [{ inventory_item_id: b.id, location_id: shop, stocked_quantity: 4 }],
      delete: [aLevel],
      force: true,
    });
    expect(done.created?.map((l) => [l.inventory_item_id, l.stocked_quantity])).toEqual([[b.id, 4]]);
    expect(done.deleted).toEqual([aLevel]);
    expect((await sdk.admin.inventoryItem.retrieve(a.id)).inventory_item.location_levels).toEqual([]);
  });

  it('answers bad input with 4xx', async () => {
    const { inventory_item: item } = await sdk.admin.inventoryItem.create({ title: 'Bad' });
    const cases: [string, string, unknown, number][] = [
      ['POST', '/admin/inventory-items', { title: 'x', bogus: 1 }, 400],
      ['POST', '/admin/inventory-items', { location_levels: [{ location_id: 'sloc_nope' }] }, 400],
      ['POST', '/admin/inventory-items', { weight: -1 }, 400],
      [
        'POST',
        `/admin/inventory-items/${item.id}/location-levels`,
        { location_id: warehouse, stocked_quantity: -1 },
        400,
      ],
      [
        'POST',
        `/admin/inventory-items/${item.id}/location-levels`,
        { location_id: warehouse, stocked_quantity: 1.5 },
        400,
      ],
      ['POST', `/admin/inventory-items/${item.id}/location-levels/${shop}`, { stocked_quantity: 1 }, 404],
      ['POST', '/admin/inventory-items/iitem_nope/location-levels', { location_id: warehouse }, 404],
      [
        'POST',
        `/admin/inventory-items/${item.id}/location-levels/batch`,
        { create: [{ location_id: warehouse }, { location_id: warehouse }] },
        400,
      ],
      ['GET', '/admin/inventory-items/iitem_nope', undefined, 404],
    ];
    for (const [method, url, body, status] of cases) {
      const res = await t.admin(method, url, body as never);
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(status);
      expect(res.json()).toHaveProperty('type');
    }
    expect((await sdk.admin.inventoryItem.retrieve(item.id)).inventory_item.location_levels).toEqual([]);
  });
});
