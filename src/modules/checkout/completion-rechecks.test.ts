import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  countRows,
  defaultChannelId,
  makeCart,
  makeChannel,
  makeKey,
  makeProduct,
  makeRegion,
  stockOf,
} from './checkout.testing.ts';

/**
 * Completion checks again what the cart was given earlier and may have changed since: that each
 * line's product is still in the cart's sales channel, that each shipping method's option is still
 * there at the price the shopper saw; and a cart is only seen through a key of its sales channel.
 */

let t: TestApp;
let region: Awaited<ReturnType<typeof makeRegion>>;
let channelA: string;
beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t); // the first region: the store's default
  channelA = await defaultChannelId(t);
});
afterAll(() => t.close());

const complete = (cartId: string, key?: string) =>
  t.store('POST', `/store/carts/${cartId}/complete`, undefined, { key });

/** Nothing of a refused completion is left: no order, no payment, the stock as it was, the cart open. */
async function expectNothingWritten(cartId: string, variantId: string, stock: number) {
  expect(await countRows(t, 'orders', sql`cart_id = ${cartId}`)).toBe(0);
  expect(await countRows(t, 'payments', sql`order_id in (select id from orders where cart_id = ${cartId})`)).toBe(0);
  expect(await stockOf(t, variantId)).toBe(stock);
  expect((await t.store('GET', `/store/carts/${cartId}`)).json().cart.completed_at).toBeNull();
}

describe("a line's product taken out of the cart's sales channel", () => {
  it('completion refuses it with the 400 of adding it, writes nothing, and completes once it is back', async () => {
    const { product, variant } = await makeProduct(t, { stock: 5 });
    const cart = await makeCart(t, { email: 'gone@example.com', items: [{ variant_id: variant.id, quantity: 2 }] });

    const removed = await t.admin('POST', `/admin/sales-channels/${channelA}/products`, { remove: [product.id] });
    expect(removed.statusCode, removed.body).toBe(200);
    const notPublished = `Variants ${variant.id} do not exist or belong to a product that is not published`;
    const add = await t.store('POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 1 });
    expect(add.statusCode).toBe(400);
    expect(add.json()).toEqual({ type: 'invalid_data', code: 'variants_unavailable', message: notPublished });

    const refused = await complete(cart.id);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({ type: 'invalid_data', code: 'variants_unavailable', message: notPublished });
    await expectNothingWritten(cart.id, variant.id, 5);

    await t.admin('POST', `/admin/sales-channels/${channelA}/products`, { add: [product.id] });
    const done = await complete(cart.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(await stockOf(t, variant.id)).toBe(3);
  });
});

describe('a cart is seen only through a key of its sales channel', () => {
  it("a key of another channel gets the 404 of a missing cart on every cart route, and can't complete it", async () => {
    const channelB = await makeChannel(t);
    const keyB = await makeKey(t, [channelB]);
    const { variant } = await makeProduct(t, { stock: 5 });
    const cart = await makeCart(t, { email: 'a@example.com', items: [{ variant_id: variant.id, quantity: 1 }] });
    const line = cart.items[0].id;
    const as = { key: keyB };
    const notFound = { type: 'not_found', code: 'cart_not_found', message: `Cart with id '${cart.id}' not found` };
    const attempts = [
      () => t.store('GET', `/store/carts/${cart.id}`, undefined, as),
      () => t.store('POST', `/store/carts/${cart.id}`, { email: 'b@example.com' }, as),
      () => t.store('POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 1 }, as),
      () => t.store('POST', `/store/carts/${cart.id}/line-items/${line}`, { quantity: 3 }, as),
      () => t.store('DELETE', `/store/carts/${cart.id}/line-items/${line}`, undefined, as),
      () => t.store('GET', `/store/shipping-options?cart_id=${cart.id}`, undefined, as),
      () => t.store('POST', '/store/payment-collections', { cart_id: cart.id }, as),
      () => complete(cart.id, keyB),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    await expectNothingWritten(cart.id, variant.id, 5);
    expect((await t.store('GET', `/store/carts/${cart.id}`)).json().cart.items[0].quantity).toBe(1);

    // A key of both channels sees it; the cart's own key (the default one) completes it.
    const keyAB = await makeKey(t, [channelA, channelB]);
    expect((await t.store('GET', `/store/carts/${cart.id}`, undefined, { key: keyAB })).statusCode).toBe(200);
    const done = await complete(cart.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().order).toMatchObject({ cart_id: cart.id, total: 1500 });
  });

  it("a cart made through another channel's key is that key's cart only", async () => {
    const channelB = await makeChannel(t);
    const keyB = await makeKey(t, [channelB]);
    const { variant } = await makeProduct(t, { channels: [channelB] });
    const cart = await makeCart(
      t,
      { email: 'b@example.com', items: [{ variant_id: variant.id, quantity: 1 }] },
      {
        'x-publishable-api-key': keyB,
      },
    );
    expect(cart.sales_channel_id).toBe(channelB);
    expect((await t.store('GET', `/store/carts/${cart.id}`)).statusCode).toBe(404);
    expect((await complete(cart.id)).statusCode).toBe(404);
    const done = await complete(cart.id, keyB);
    expect(done.statusCode, done.body).toBe(200);
  });
});

describe('a chosen shipping option deleted or repriced since', () => {
  async function cartWithMethod(amount: number) {
    const option = await t.admin('POST', '/admin/shipping-options', { name: 'Post', region_id: region.id, amount });
    expect(option.statusCode, option.body).toBe(200);
    const { variant } = await makeProduct(t, { stock: 5 });
    const cart = await makeCart(t, { email: 'ship@example.com', items: [{ variant_id: variant.id, quantity: 1 }] });
    const optionId: string = option.json().shipping_option.id;
    const chosen = await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: optionId });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().cart.shipping_total).toBe(amount);
    return { cartId: cart.id as string, optionId, variantId: variant.id };
  }

  it('deleted: completion asks to choose a shipping method again and writes nothing', async () => {
    const { cartId, optionId, variantId } = await cartWithMethod(0);
    expect((await t.admin('POST', `/admin/shipping-options/${optionId}`, { amount: 5000 })).statusCode).toBe(200);
    expect((await t.admin('DELETE', `/admin/shipping-options/${optionId}`)).statusCode).toBe(200);
    expect((await t.store('GET', `/store/shipping-options?cart_id=${cartId}`)).json().shipping_options).toEqual([]);

    const refused = await complete(cartId);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({
      type: 'invalid_data',
      code: 'shipping_option_gone',
      message: `Shipping option ${optionId} is no longer available: choose a shipping method again with POST /store/carts/{id}/shipping-methods`,
    });
    await expectNothingWritten(cartId, variantId, 5);

    const other = await t.admin('POST', '/admin/shipping-options', {
      name: 'Courier',
      region_id: region.id,
      amount: 700,
    });
    const option_id = other.json().shipping_option.id;
    expect((await t.store('POST', `/store/carts/${cartId}/shipping-methods`, { option_id })).statusCode).toBe(200);
    const done = await complete(cartId);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().order).toMatchObject({ shipping_total: 700, total: 2200 });
  });

  it('moved to another region: the same 400', async () => {
    const { cartId, optionId, variantId } = await cartWithMethod(300);
    const elsewhere = await makeRegion(t);
    const moved = await t.admin('POST', `/admin/shipping-options/${optionId}`, { region_id: elsewhere.id });
    expect(moved.statusCode, moved.body).toBe(200);
    const refused = await complete(cartId);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toMatch(
      /^Shipping option .* is no longer available: choose a shipping method again/,
    );
    await expectNothingWritten(cartId, variantId, 5);
  });

  it('repriced: completion refuses until the method is chosen again, then the order and its payment take the new price', async () => {
    const { cartId, optionId, variantId } = await cartWithMethod(0);
    const pc = (await t.store('POST', '/store/payment-collections', { cart_id: cartId })).json().payment_collection;
    const session = await t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {
      provider_id: 'pp_system_default',
    });
    expect(session.statusCode, session.body).toBe(200);
    expect((await t.admin('POST', `/admin/shipping-options/${optionId}`, { amount: 5000 })).statusCode).toBe(200);

    const refused = await complete(cartId);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({
      type: 'invalid_data',
      code: 'shipping_price_changed',
      message: `The price of shipping option ${optionId} changed since it was chosen: choose a shipping method again with POST /store/carts/{id}/shipping-methods to see the new total`,
    });
    await expectNothingWritten(cartId, variantId, 5);

    const again = await t.store('POST', `/store/carts/${cartId}/shipping-methods`, { option_id: optionId });
    expect(again.json().cart).toMatchObject({ shipping_total: 5000, total: 6500 });
    expect(again.json().cart.payment_collection.amount).toBe(6500);
    const done = await complete(cartId);
    expect(done.statusCode, done.body).toBe(200);
    const { order } = done.json();
    expect(order).toMatchObject({ shipping_total: 5000, total: 6500 });
    expect(order.shipping_methods).toEqual([expect.objectContaining({ shipping_option_id: optionId, amount: 5000 })]);
    expect(order.payment_collections[0].payments).toEqual([
      expect.objectContaining({ provider_id: 'pp_system_default', amount: 6500 }),
    ]);
  });
});
