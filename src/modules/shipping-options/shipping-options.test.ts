import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeCart, makeProduct, makeRegion, uniq } from '../checkout/checkout.testing.ts';

let t: TestApp;
let region: Awaited<ReturnType<typeof makeRegion>>;
beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t);
});
afterAll(() => t.close());

async function makeOption(body: Record<string, unknown> = {}) {
  const res = await t.admin('POST', '/admin/shipping-options', {
    name: `Standard ${uniq()}`,
    region_id: region.id,
    amount: 500,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().shipping_option;
}

describe('admin shipping options', () => {
  it('creates, reads, updates by POST and PATCH, deletes (soft)', async () => {
    const so = await makeOption({ name: 'Express', amount: 1500, data: { carrier: 'dhl' } });
    expect(so.id).toMatch(/^so_/);
    expect(so).toMatchObject({
      name: 'Express',
      region_id: region.id,
      amount: 1500,
      price_type: 'flat',
      provider_id: 'manual_manual',
      data: { carrier: 'dhl' },
      created_at: t.clock.now().toISOString(),
    });
    expect((await t.admin('GET', `/admin/shipping-options/${so.id}`)).json().shipping_option).toEqual(so);
    const posted = await t.admin('POST', `/admin/shipping-options/${so.id}`, { amount: 1700 });
    expect(posted.json().shipping_option).toMatchObject({ amount: 1700, name: 'Express' });
    const patched = await t.admin('PATCH', `/admin/shipping-options/${so.id}`, { name: 'Express+', data: null });
    expect(patched.json().shipping_option).toMatchObject({ amount: 1700, name: 'Express+', data: null });
    const del = await t.admin('DELETE', `/admin/shipping-options/${so.id}`);
    expect(del.json()).toEqual({ id: so.id, object: 'shipping_option', deleted: true });
    expect((await t.admin('GET', `/admin/shipping-options/${so.id}`)).statusCode).toBe(404);
    expect((await t.admin('DELETE', `/admin/shipping-options/${so.id}`)).statusCode).toBe(404);
    expect((await t.admin('POST', `/admin/shipping-options/${so.id}`, { amount: 1 })).json()).toEqual({
      type: 'not_found',
      code: 'shipping_option_not_found',
      message: `Shipping option with id: ${so.id} was not found`,
    });
  });

  it('validates bodies: required fields, types, unknown fields, negative or fractional amounts, unknown region', async () => {
    const bad = [
      {},
      { name: 'x', region_id: region.id },
      { name: 'x', region_id: region.id, amount: -1 },
      { name: 'x', region_id: region.id, amount: 1.5 },
      { name: 'x', region_id: region.id, amount: '5' },
      { name: 'x', region_id: region.id, amount: 5, foo: 1 },
      { name: 'x', region_id: region.id, amount: 5, price_type: 'calculated' },
      { name: '', region_id: region.id, amount: 5 },
    ];
    for (const body of bad)
      expect((await t.admin('POST', '/admin/shipping-options', body)).statusCode, JSON.stringify(body)).toBe(400);
    const unknown = await t.admin('POST', '/admin/shipping-options', { name: 'x', region_id: 'reg_nope', amount: 5 });
    expect(unknown.json()).toEqual({
      type: 'invalid_data',
      code: 'shipping_option_reference_missing',
      message: 'Region with id: reg_nope was not found',
    });
    const so = await makeOption();
    expect((await t.admin('PATCH', `/admin/shipping-options/${so.id}`, { region_id: 'reg_nope' })).statusCode).toBe(
      400,
    );
  });

  it('lists with region filter and pagination', async () => {
    const other = await makeRegion(t, { currency: 'usd' });
    const mine = [
      await makeOption({ region_id: other.id }),
      await makeOption({ region_id: other.id }),
      await makeOption({ region_id: other.id }),
    ];
    const all = (await t.admin('GET', `/admin/shipping-options?region_id=${other.id}`)).json();
    expect(all).toMatchObject({ count: 3, limit: 20, offset: 0 });
    expect(all.shipping_options.map((s: { id: string }) => s.id)).toEqual(mine.map((s) => s.id));
    expect(
      (await t.admin('GET', `/admin/shipping-options?region_id=${other.id}&limit=1&offset=1`)).json()
        .shipping_options[0].id,
    ).toBe(mine[1].id);
    expect((await t.admin('GET', `/admin/shipping-options?region_id=${other.id}&limit=0`)).json()).toMatchObject({
      shipping_options: [],
      count: 3,
      limit: 0,
    });
    expect((await t.admin('GET', `/admin/shipping-options?region_id=${other.id}&offset=10`)).json()).toMatchObject({
      shipping_options: [],
      count: 3,
    });
    expect((await t.admin('GET', '/admin/shipping-options?limit=5000')).json().limit).toBe(1000);
    expect((await t.admin('GET', '/admin/shipping-options?limit=-1')).statusCode).toBe(400);
  });

  it('needs an admin: 401 without a token, 403 for a viewer’s write, viewers may read', async () => {
    expect((await t.inject({ method: 'GET', url: '/admin/shipping-options' })).statusCode).toBe(401);
    const viewer = { token: t.viewerToken };
    expect((await t.admin('GET', '/admin/shipping-options', undefined, viewer)).statusCode).toBe(200);
    expect(
      (await t.admin('POST', '/admin/shipping-options', { name: 'x', region_id: region.id, amount: 1 }, viewer))
        .statusCode,
    ).toBe(403);
  });
});

describe('store shipping options and shipping methods', () => {
  it('lists the options of the cart’s region (no count), then sets and replaces the cart’s method', async () => {
    const elsewhere = await makeRegion(t, { currency: 'usd' });
    const a = await makeOption({ amount: 500 });
    const b = await makeOption({ amount: 900 });
    await makeOption({ region_id: elsewhere.id });
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, { region_id: region.id, items: [{ variant_id: variant.id, quantity: 1 }] });
    const list = await t.store('GET', `/store/shipping-options?cart_id=${cart.id}`);
    expect(list.statusCode).toBe(200);
    expect(Object.keys(list.json())).toEqual(['shipping_options']);
    const ids = list.json().shipping_options.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(list.json().shipping_options.every((s: { region_id: string }) => s.region_id === region.id)).toBe(true);
    expect(list.json().shipping_options[0]).toMatchObject({
      price_type: 'flat',
      is_tax_inclusive: false,
      insufficient_inventory: false,
      provider_id: 'manual_manual',
    });

    const first = (await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: a.id })).json().cart;
    expect(first.shipping_methods).toEqual([
      expect.objectContaining({ shipping_option_id: a.id, name: a.name, amount: 500, total: 500 }),
    ]);
    expect(first).toMatchObject({
      item_total: 1500,
      shipping_total: 500,
      shipping_subtotal: 500,
      subtotal: 2000,
      total: 2000,
    });
    const second = (
      await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: b.id, data: { slot: 'am' } })
    ).json().cart;
    expect(second.shipping_methods).toEqual([
      expect.objectContaining({ shipping_option_id: b.id, amount: 900, data: { slot: 'am' } }),
    ]);
    expect(second.total).toBe(2400);
  });

  it('400s options of another region or deleted ones, and bad queries', async () => {
    const elsewhere = await makeRegion(t, { currency: 'usd' });
    const foreign = await makeOption({ region_id: elsewhere.id });
    const gone = await makeOption();
    await t.admin('DELETE', `/admin/shipping-options/${gone.id}`);
    const cart = await makeCart(t, { region_id: region.id });
    for (const option_id of [foreign.id, gone.id, 'so_nope']) {
      const res = await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id });
      expect(res.json()).toEqual({
        type: 'invalid_data',
        code: 'shipping_options_invalid_for_cart',
        message: 'Shipping Options are invalid for cart.',
      });
    }
    expect((await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, {})).statusCode).toBe(400);
    expect((await t.store('GET', '/store/shipping-options')).statusCode).toBe(400);
    expect((await t.store('GET', '/store/shipping-options?cart_id=cart_nope')).statusCode).toBe(404);
  });
});
