import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeRegion, stockOf } from '../checkout/checkout.testing.ts';
import { placeOrder } from '../orders/orders.testing.ts';

let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
  await makeRegion(t);
});
afterAll(() => t.close());

/** The variant's own item (made with it) and its levels. */
async function itemOf(variantId: string) {
  const [link] = await rows<{ inventory_item_id: string; required_quantity: number }>(
    t.database.db,
    sql`select inventory_item_id, required_quantity from product_variant_inventory_items where variant_id = ${variantId}`,
  );
  return (await sdk.admin.inventoryItem.retrieve(link.inventory_item_id)).inventory_item;
}

describe("a variant's stock is its items' levels", () => {
  it('a new stock-managed variant gets an item and a level at the default location, which serves the channel', async () => {
    const { order, variants: sold } = await placeOrder(t, { lines: [2], product: { stock: 10 } });
    expect(order.items[0].quantity).toBe(2);
    const item = await itemOf(sold[0].id);
    // Checkout reserves: the units stay on the shelf, held for the order.
    expect(item).toMatchObject({ stocked_quantity: 10, reserved_quantity: 2, requires_shipping: true });
    expect(item.location_levels).toHaveLength(1);
    const { stock_location: location } = await sdk.admin.stockLocation.retrieve(item.location_levels![0].location_id, {
      fields: '*sales_channels',
    });
    expect(location.name).toBe('Default location');
    expect(location.sales_channels?.length).toBeGreaterThan(0);
    expect(await stockOf(t, sold[0].id)).toBe(8);

    // A cancelled order releases its hold.
    const cancelled = await t.admin('POST', `/admin/orders/${order.id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await itemOf(sold[0].id)).toMatchObject({ stocked_quantity: 10, reserved_quantity: 0 });
    expect(await stockOf(t, sold[0].id)).toBe(10);
  });

  it('a level changed by the operator changes what the variant sells; a decrement takes from the fullest level', async () => {
    const { variants } = await placeOrder(t, { lines: [1], product: { stock: 5 } });
    const item = await itemOf(variants[0].id);
    const { stock_location: annex } = await sdk.admin.stockLocation.create({ name: 'Annex' });
    await sdk.admin.inventoryItem.batchInventoryItemLocationLevels(item.id, {
      create: [{ location_id: annex.id, stocked_quantity: 6 }],
    });
    expect(await stockOf(t, variants[0].id)).toBe(4 + 6);

    // Two units ordered through the variant's number: the annex (6) gives them.
    await t.database.db.execute(
      sql`update product_variants set inventory_quantity = inventory_quantity - 2 where id = ${variants[0].id}`,
    );
    const after = await itemOf(variants[0].id);
    const byLoc = Object.fromEntries(after.location_levels!.map((l) => [l.location_id, l.stocked_quantity]));
    expect(byLoc[annex.id]).toBe(4);
    expect(after.stocked_quantity).toBe(5 + 4); // the order's unit is still on the default shelf, reserved
    expect(await stockOf(t, variants[0].id)).toBe(8);
  });

  it('a kit sells the minimum over its items of floor(available / required_quantity)', async () => {
    const { variants, order } = await placeOrder(t, { lines: [1], product: { stock: 9 } });
    const own = await itemOf(variants[0].id);
    const productId = (await t.admin('GET', `/admin/orders/${order.id}`)).json().order.items[0].product_id as string;
    const { stock_location: loc } = await sdk.admin.stockLocation.create({ name: 'Kits' });
    const { inventory_item: strap } = await sdk.admin.inventoryItem.create({
      title: 'Strap',
      location_levels: [{ location_id: loc.id, stocked_quantity: 7 }],
    } as never);

    const linked = await sdk.admin.product.batchVariantInventoryItems(productId, {
      create: [{ variant_id: variants[0].id, inventory_item_id: strap.id, required_quantity: 2 }],
    });
    expect(linked.created?.[0]).toMatchObject({ variant_id: variants[0].id, required_quantity: 2 });
    expect(await stockOf(t, variants[0].id)).toBe(3); // min(8 / 1, floor(7 / 2))

    // One kit sold: one of its own item and two straps.
    await t.database.db.execute(
      sql`update product_variants set inventory_quantity = inventory_quantity - 1 where id = ${variants[0].id}`,
    );
    expect((await sdk.admin.inventoryItem.retrieve(strap.id)).inventory_item.stocked_quantity).toBe(5);
    expect((await sdk.admin.inventoryItem.retrieve(own.id)).inventory_item.stocked_quantity).toBe(8); // 1 reserved
    expect(await stockOf(t, variants[0].id)).toBe(2);

    await sdk.admin.product.batchVariantInventoryItems(productId, {
      update: [{ variant_id: variants[0].id, inventory_item_id: strap.id, required_quantity: 1 }],
    });
    expect(await stockOf(t, variants[0].id)).toBe(5);
    await sdk.admin.product.batchVariantInventoryItems(productId, {
      delete: [{ variant_id: variants[0].id, inventory_item_id: strap.id }],
    });
    expect(await stockOf(t, variants[0].id)).toBe(7);

    const stray = await t.admin('POST', `/admin/products/${productId}/variants/inventory-items/batch`, {
      create: [{ variant_id: 'variant_nope', inventory_item_id: strap.id, required_quantity: 1 }],
    });
    expect(stray.statusCode).toBe(404);
    const zero = await t.admin('POST', `/admin/products/${productId}/variants/inventory-items/batch`, {
      create: [{ variant_id: variants[0].id, inventory_item_id: strap.id, required_quantity: 0 }],
    });
    expect(zero.statusCode).toBe(400);
  });
});
