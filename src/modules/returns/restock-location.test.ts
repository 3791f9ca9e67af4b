import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeRegion, stockOf, uniq } from '../checkout/checkout.testing.ts';
import { placeOrder, placeFulfilledOrder } from '../orders/orders.testing.ts';

let t: TestApp;
let sdk: Sdk;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

const itemOf = async (variantId: string) =>
  (
    await rows<{ id: string }>(
      t.database.db,
      sql`select inventory_item_id as id from product_variant_inventory_items where variant_id = ${variantId}`,
    )
  )[0].id;

const stockedAt = async (itemId: string, locationId: string) => {
  const levels = (await sdk.admin.inventoryItem.listLevels(itemId)).inventory_levels;
  return levels.find((l) => l.location_id === locationId)?.stocked_quantity ?? 0;
};

const reservedAt = async (itemId: string, locationId: string) => {
  const levels = (await sdk.admin.inventoryItem.listLevels(itemId)).inventory_levels;
  return levels.find((l) => l.location_id === locationId)?.reserved_quantity ?? 0;
};

describe('a received return restocks into its location', () => {
  it("raises the chosen location's stocked quantity by what came back sellable", async () => {
    const placed = await placeFulfilledOrder(t);
    const { order, line } = placed;
    const variantId = placed.variants[0].id;
    const itemId = await itemOf(variantId);
    const location = (await sdk.admin.stockLocation.create({ name: `Returns desk ${uniq()}` })).stock_location;
    const stockBefore = await stockOf(t, variantId);

    const unknown = await t.admin('POST', '/admin/returns', { order_id: order.id, location_id: 'sloc_missing' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().type).toBe('not_found');

    const ret = (await sdk.admin.return.initiateRequest({ order_id: order.id, location_id: location.id })).return;
    await sdk.admin.return.addReturnItem(ret.id, { items: [{ id: line.id, quantity: 2 }] });
    await sdk.admin.return.confirmRequest(ret.id, {});
    await sdk.admin.return.initiateReceive(ret.id, {});
    await sdk.admin.return.receiveItems(ret.id, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.return.dismissItems(ret.id, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.return.confirmReceive(ret.id, {});

    expect(await stockedAt(itemId, location.id)).toBe(1);
    expect(await stockOf(t, variantId)).toBe(stockBefore + 1);
  }, 120_000); // some fifteen requests in a row: a busy shared machine needs more than the default

  // Orders reserve at checkout: lowering an unfulfilled line shrinks its hold; the shelf keeps its units.
  it('an order edit lowering a line gives back its reservation at the default location', async () => {
    const placed = await placeOrder(t);
    const order = placed.order;
    const variantId = placed.variants[0].id;
    const itemId = await itemOf(variantId);
    const [{ location_id: home }] = await rows<{ location_id: string }>(
      t.database.db,
      sql`select location_id from inventory_defaults`,
    );
    const before = await stockedAt(itemId, home);
    const reservedBefore = await reservedAt(itemId, home);
    const sellableBefore = await stockOf(t, variantId);
    await sdk.admin.orderEdit.initiateRequest({ order_id: order.id });
    await sdk.admin.orderEdit.updateOriginalItem(order.id, order.items[0].id, { quantity: 1 });
    await sdk.admin.orderEdit.request(order.id);
    await sdk.admin.orderEdit.confirm(order.id);
    expect(await stockedAt(itemId, home)).toBe(before);
    expect(await reservedAt(itemId, home)).toBe(reservedBefore - 2);
    expect(await stockOf(t, variantId)).toBe(sellableBefore + 2);
  });
});
