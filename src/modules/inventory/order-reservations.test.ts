import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import {
  defaultChannelId,
  makeCart,
  makeChannel,
  makeKey,
  makeProduct,
  makeRegion,
  stockOf,
} from '../checkout/checkout.testing.ts';

let t: TestApp;
let sdk: Sdk;
let home: string; // the default location, first in the channel's order
let annex: string; // linked to the channel after it
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
  await makeRegion(t);
  const first = await stocked(1);
  home = (await levels(first.itemId))[0].location_id;
  annex = (await sdk.admin.stockLocation.create({ name: 'Annex' })).stock_location.id;
  await sdk.admin.stockLocation.updateSalesChannels(annex, { add: [await defaultChannelId(t)] });
});
afterAll(() => t.close());

const levels = async (itemId: string) =>
  (await sdk.admin.inventoryItem.retrieve(itemId)).inventory_item.location_levels!;
const at = async (itemId: string, location: string) => {
  const l = (await levels(itemId)).find((x) => x.location_id === location)!;
  return { stocked: l.stocked_quantity, reserved: l.reserved_quantity };
};

/** A variant whose item has `inHome` at the default location and (when given) `inAnnex` at the annex. */
async function stocked(inHome: number, inAnnex?: number) {
  const { variant } = await makeProduct(t, { stock: inHome });
  const [link] = await rows<{ id: string }>(
    t.database.db,
    sql`select inventory_item_id as id from product_variant_inventory_items where variant_id = ${variant.id}`,
  );
  if (inAnnex !== undefined)
    await sdk.admin.inventoryItem.batchInventoryItemLocationLevels(link.id, {
      create: [{ location_id: annex, stocked_quantity: inAnnex }],
    });
  return { variantId: variant.id, itemId: link.id };
}

async function order(variantId: string, quantity: number) {
  const cart = await makeCart(t, { email: 'r@example.com', items: [{ variant_id: variantId, quantity }] });
  const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
  expect(done.statusCode, done.body).toBe(200);
  const o = done.json().order as { id: string; items: { id: string }[] };
  return { id: o.id, lineId: o.items[0].id };
}

const heldFor = async (lineId: string) =>
  (await sdk.admin.reservation.list({ line_item_id: [lineId] } as never)).reservations
    .map((r) => ({ location: r.location_id, quantity: r.quantity }))
    .sort((a, b) => a.location.localeCompare(b.location));

const lineReserved = async (lineId: string) =>
  (
    await rows<{ n: number }>(
      t.database.db,
      sql`select reserved_quantity as n from order_line_items where id = ${lineId}`,
    )
  )[0].n;

describe('checkout reserves stock at a location', () => {
  it("by the channel's location order, spilling over to the next location; the shelf is untouched", async () => {
    const { variantId, itemId } = await stocked(2, 5);
    const { lineId } = await order(variantId, 3);
    expect(await heldFor(lineId)).toEqual(
      [
        { location: home, quantity: 2 },
        { location: annex, quantity: 1 },
      ].sort((a, b) => a.location.localeCompare(b.location)),
    );
    expect(await at(itemId, home)).toEqual({ stocked: 2, reserved: 2 });
    expect(await at(itemId, annex)).toEqual({ stocked: 5, reserved: 1 });
    expect(await stockOf(t, variantId)).toBe(4);
  });

  it('by the most available location when the setting inventory.allocation says so', async () => {
    const set = await t.admin('POST', '/admin/settings', { key: 'inventory.allocation', value: 'most_available' });
    expect(set.statusCode, set.body).toBe(200);
    try {
      const { variantId } = await stocked(2, 5);
      const { lineId } = await order(variantId, 1);
      expect(await heldFor(lineId)).toEqual([{ location: annex, quantity: 1 }]);
    } finally {
      await t.admin('DELETE', '/admin/settings/inventory.allocation');
    }
  });

  it('an order cancelled releases its reservations', async () => {
    const { variantId, itemId } = await stocked(5);
    const { id, lineId } = await order(variantId, 2);
    expect(await at(itemId, home)).toEqual({ stocked: 5, reserved: 2 });
    expect(await stockOf(t, variantId)).toBe(3);
    const res = await t.admin('POST', `/admin/orders/${id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await heldFor(lineId)).toEqual([]);
    expect(await at(itemId, home)).toEqual({ stocked: 5, reserved: 0 });
    expect(await stockOf(t, variantId)).toBe(5);
    expect(await lineReserved(lineId)).toBe(0);
  });

  it('a fulfilment from another location than the reserving one moves the right numbers, and back when canceled', async () => {
    const { variantId, itemId } = await stocked(5, 6);
    const { id, lineId } = await order(variantId, 2);
    expect(await heldFor(lineId)).toEqual([{ location: home, quantity: 2 }]);

    const fulfilled = await t.admin('POST', `/admin/orders/${id}/fulfillments`, {
      items: [{ id: lineId, quantity: 2 }],
      location_id: annex,
    });
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    const f = fulfilled.json().order.fulfillments[0];
    expect(f.location_id).toBe(annex);
    expect(f).not.toHaveProperty('stock_moves');
    expect(await at(itemId, home)).toEqual({ stocked: 5, reserved: 0 });
    expect(await at(itemId, annex)).toEqual({ stocked: 4, reserved: 0 });
    expect(await heldFor(lineId)).toEqual([]);
    expect(await lineReserved(lineId)).toBe(0);
    expect(await stockOf(t, variantId)).toBe(9);

    // Canceled before it ships: the two units go back to the annex, held there for the line.
    const canceled = await t.admin('POST', `/admin/orders/${id}/fulfillments/${f.id}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await at(itemId, annex)).toEqual({ stocked: 6, reserved: 2 });
    expect(await heldFor(lineId)).toEqual([{ location: annex, quantity: 2 }]);
    expect(await lineReserved(lineId)).toBe(2);
    expect(await stockOf(t, variantId)).toBe(9);

    // No location given: the reserving one (now the annex) ships one unit.
    const again = await t.admin('POST', `/admin/orders/${id}/fulfillments`, { items: [{ id: lineId, quantity: 1 }] });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().order.fulfillments.at(-1).location_id).toBe(annex);
    expect(await at(itemId, annex)).toEqual({ stocked: 5, reserved: 1 });
    expect(await lineReserved(lineId)).toBe(1);
  });

  it('partial fulfilments from two locations cancel one by one, each putting its stock back where it left from', async () => {
    const { variantId, itemId } = await stocked(2, 5);
    const { id, lineId } = await order(variantId, 3); // held: 2 at home, 1 at the annex
    const seen = new Set<string>();
    const fulfil = async (quantity: number, location_id?: string) => {
      const res = await t.admin('POST', `/admin/orders/${id}/fulfillments`, {
        items: [{ id: lineId, quantity }],
        ...(location_id ? { location_id } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      const made = (res.json().order.fulfillments as { id: string; location_id: string | null }[]).find(
        (f) => !seen.has(f.id),
      )!;
      seen.add(made.id);
      return made;
    };
    const cancel = async (fulfillmentId: string) => {
      const res = await t.admin('POST', `/admin/orders/${id}/fulfillments/${fulfillmentId}/cancel`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().order;
    };

    // One unit from the annex takes the annex's own hold; the other two leave home.
    const fromAnnex = await fulfil(1, annex);
    expect(await at(itemId, annex)).toEqual({ stocked: 4, reserved: 0 });
    expect(await at(itemId, home)).toEqual({ stocked: 2, reserved: 2 });
    const fromHome = await fulfil(2);
    expect(fromHome.location_id).toBe(home);
    expect(await at(itemId, home)).toEqual({ stocked: 0, reserved: 0 });
    expect(await lineReserved(lineId)).toBe(0);

    // The annex's parcel canceled: its unit goes back to the annex only, held there again.
    const partly = await cancel(fromAnnex.id);
    expect(partly.fulfillment_status).toBe('partially_fulfilled');
    expect(await at(itemId, annex)).toEqual({ stocked: 5, reserved: 1 });
    expect(await at(itemId, home)).toEqual({ stocked: 0, reserved: 0 });
    expect(await heldFor(lineId)).toEqual([{ location: annex, quantity: 1 }]);
    expect(await lineReserved(lineId)).toBe(1);

    await cancel(fromHome.id);
    expect(await at(itemId, home)).toEqual({ stocked: 2, reserved: 2 });
    expect(await at(itemId, annex)).toEqual({ stocked: 5, reserved: 1 });
    expect(await lineReserved(lineId)).toBe(3);
    expect(await stockOf(t, variantId)).toBe(4);

    // One parcel of all three takes from both holds; canceled, each location gets its own back.
    const both = await fulfil(3);
    expect(both.location_id).toBeNull();
    expect(await at(itemId, home)).toEqual({ stocked: 0, reserved: 0 });
    expect(await at(itemId, annex)).toEqual({ stocked: 4, reserved: 0 });
    const none = await cancel(both.id);
    expect(none.fulfillment_status).toBe('not_fulfilled');
    expect(await at(itemId, home)).toEqual({ stocked: 2, reserved: 2 });
    expect(await at(itemId, annex)).toEqual({ stocked: 5, reserved: 1 });
    expect(await lineReserved(lineId)).toBe(3);
    expect(await stockOf(t, variantId)).toBe(4);
  });

  it('a location that does not keep the item, or has too little free, refuses the fulfilment and nothing moves', async () => {
    const { variantId, itemId } = await stocked(5);
    const { id, lineId } = await order(variantId, 2);
    const nowhere = await t.admin('POST', `/admin/orders/${id}/fulfillments`, {
      items: [{ id: lineId, quantity: 2 }],
      location_id: annex,
    });
    expect(nowhere.statusCode, nowhere.body).toBe(400);
    await sdk.admin.inventoryItem.batchInventoryItemLocationLevels(itemId, {
      create: [{ location_id: annex, stocked_quantity: 1 }],
    });
    const short = await t.admin('POST', `/admin/orders/${id}/fulfillments`, {
      items: [{ id: lineId, quantity: 2 }],
      location_id: annex,
    });
    expect(short.statusCode, short.body).toBe(400);
    expect(short.json().code).toBe('insufficient_inventory');
    expect(await at(itemId, home)).toEqual({ stocked: 5, reserved: 2 });
    expect(await at(itemId, annex)).toEqual({ stocked: 1, reserved: 0 });
  });
});

describe("the store's inventory_quantity counts the channel's locations", () => {
  it('each channel sees what its locations can sell; a move between locations shows at once', async () => {
    const channel = await makeChannel(t);
    const { variant, product } = await makeProduct(t, { stock: 6, channels: [await defaultChannelId(t), channel] });
    const [{ id: itemId }] = await rows<{ id: string }>(
      t.database.db,
      sql`select inventory_item_id as id from product_variant_inventory_items where variant_id = ${variant.id}`,
    );
    const shop = (await sdk.admin.stockLocation.create({ name: 'Channel shop' })).stock_location.id;
    await sdk.admin.stockLocation.updateSalesChannels(shop, { add: [channel] });
    await sdk.admin.inventoryItem.batchInventoryItemLocationLevels(itemId, {
      create: [
        { location_id: shop, stocked_quantity: 4 },
        { location_id: annex, stocked_quantity: 3 },
      ],
    });
    const key = await makeKey(t, [channel]);
    const seen = async (k?: string) => {
      const res = await t.store(
        'GET',
        `/store/products/${product.id}?fields=+variants.inventory_quantity`,
        undefined,
        k ? { key: k } : undefined,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json().product.variants[0].inventory_quantity as number;
    };
    expect(await seen()).toBe(6 + 3); // the default channel: home and the annex
    expect(await seen(key)).toBe(4); // its own shop only
    expect(await stockOf(t, variant.id)).toBe(13); // the variant's own number: every location

    await sdk.admin.inventoryItem.batchInventoryItemLocationLevels(itemId, {
      update: [
        { location_id: shop, stocked_quantity: 1 },
        { location_id: annex, stocked_quantity: 6 },
      ],
    });
    expect(await seen()).toBe(12);
    expect(await seen(key)).toBe(1);
    const list = await t.store(
      'GET',
      `/store/products?id=${product.id}&fields=+variants.inventory_quantity`,
      undefined,
      {
        key,
      },
    );
    expect(list.json().products[0].variants[0].inventory_quantity).toBe(1);
  });
});
