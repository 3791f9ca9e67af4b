import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import {
  defaultChannelId,
  freshCountry,
  makeCart,
  makeProduct,
  makeRegion,
  uniq,
} from '../checkout/checkout.testing.ts';
import { adminOk, adminOrder, orderEventNames } from './orders.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: SDK answers read as JSON
type Json = any;

/**
 * The order desk's routes that Medusa's JS SDK calls beside the per-order ones: `admin.fulfillment`
 * (fulfilments named by their own id), `admin.order.update | listLineItems | listShippingOptions |
 * updateOrderChange | authorizePaymentSession` and `admin.paymentCollection.createPaymentSession`.
 */

let t: TestApp;
let sdk: Json;
let country: string;

beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
  country = (await makeRegion(t)).countries[0].iso_2;
});
afterAll(() => t.close());

const address = () => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  address_1: '1 Main St',
  city: 'Springfield',
  postal_code: '10115',
  country_code: country,
});

/** An order with a shipping and billing address, one product per line, placed through the store. */
async function placed(lines = [3]) {
  const items = [];
  for (const quantity of lines) items.push({ variant_id: (await makeProduct(t)).variant.id, quantity });
  const cart = await makeCart(t, {
    email: `buyer-${uniq()}@example.com`,
    items,
    shipping_address: address(),
    billing_address: address(),
  });
  const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
  expect(done.statusCode, done.body).toBe(200);
  return done.json().order as Json;
}

/** The refusal of a request: its status and `{ type, code }`. */
async function refusal(method: 'POST' | 'GET', url: string, body?: unknown) {
  const res = await t.admin(method, url, body as never);
  return { status: res.statusCode, code: res.json().code as string, type: res.json().type as string };
}

const label = (n: number) => ({
  tracking_number: `TRK-${n}`,
  tracking_url: `https://track.example/${n}`,
  label_url: `https://labels.example/${n}.pdf`,
});

describe('admin.fulfillment', () => {
  it('create fulfils order lines through the desk; createShipment ships it; cancel gives units back', async () => {
    const order = await placed([3]);
    const [line] = order.items;
    const { fulfillment } = await sdk.admin.fulfillment.create({
      order_id: order.id,
      provider_id: 'manual_manual',
      delivery_address: address(),
      items: [{ line_item_id: line.id, quantity: 2, title: 'Ignored', sku: 'IGNORED', barcode: '' }],
      labels: [label(1)],
    });
    expect(fulfillment).toMatchObject({
      order_id: order.id,
      provider_id: 'manual_manual',
      shipped_at: null,
      canceled_at: null,
      labels: [expect.objectContaining(label(1))],
    });
    expect(fulfillment.id).toMatch(/^ful_/);
    // The line's own title and SKU are kept.
    expect(fulfillment.items).toEqual([
      expect.objectContaining({ line_item_id: line.id, quantity: 2, title: line.title, sku: line.variant_sku }),
    ]);
    let detail = await adminOrder(t, order.id);
    expect(detail.fulfillment_status).toBe('partially_fulfilled');
    expect(detail.items[0].detail).toMatchObject({ fulfilled_quantity: 2, shipped_quantity: 0 });

    const { fulfillment: shipped } = await sdk.admin.fulfillment.createShipment(fulfillment.id, { labels: [label(2)] });
    expect(shipped.id).toBe(fulfillment.id);
    expect(shipped.shipped_at).not.toBeNull();
    expect(shipped.labels.map((l: Json) => l.tracking_number)).toEqual(['TRK-1', 'TRK-2']);

    const { fulfillment: second } = await sdk.admin.fulfillment.create({
      order_id: order.id,
      items: [{ line_item_id: line.id, quantity: 1 }],
    });
    const { fulfillment: canceled } = await sdk.admin.fulfillment.cancel(second.id);
    expect(canceled).toMatchObject({ id: second.id, shipped_at: null });
    expect(canceled.canceled_at).not.toBeNull();
    detail = await adminOrder(t, order.id);
    expect(detail.items[0].detail).toMatchObject({ fulfilled_quantity: 2, shipped_quantity: 2 });
    expect(detail.fulfillment_status).toBe('partially_shipped');
    expect(await orderEventNames(t, order.id)).toEqual([
      'order.placed',
      'order.fulfilled',
      'order.shipped',
      'order.fulfilled',
    ]);
  });

  it('refusals: shipped or unknown fulfilments, a provider that does not ship the order, unknown orders, no line', async () => {
    const order = await placed([2]);
    const [line] = order.items;
    const { fulfillment } = await sdk.admin.fulfillment.create({
      order_id: order.id,
      items: [{ line_item_id: line.id, quantity: 1 }],
    });
    await sdk.admin.fulfillment.createShipment(fulfillment.id, { labels: [] });
    expect(await refusal('POST', `/admin/fulfillments/${fulfillment.id}/cancel`)).toMatchObject({
      status: 400,
      code: 'fulfillment_shipped_not_cancelable',
    });
    expect(await refusal('POST', `/admin/fulfillments/${fulfillment.id}/shipment`, { labels: [] })).toMatchObject({
      status: 400,
      code: 'fulfillment_already_shipped',
    });
    for (const [path, body] of [
      ['cancel', {}],
      ['shipment', { labels: [] }],
    ] as const)
      expect(await refusal('POST', `/admin/fulfillments/ful_nope/${path}`, body)).toMatchObject({
        status: 404,
        code: 'fulfillment_not_found',
      });
    const items = [{ line_item_id: line.id, quantity: 1 }];
    expect(
      await refusal('POST', '/admin/fulfillments', { order_id: order.id, provider_id: 'fp_elsewhere', items }),
    ).toMatchObject({ status: 400, code: 'fulfillment_provider_mismatch' });
    expect(await refusal('POST', '/admin/fulfillments', { order_id: 'order_nope', items })).toMatchObject({
      status: 404,
      code: 'order_not_found',
    });
    expect(
      await refusal('POST', '/admin/fulfillments', { order_id: order.id, items: [{ quantity: 1, title: 'x' }] }),
    ).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(
      await refusal('POST', '/admin/fulfillments', { order_id: order.id, items: [{ ...items[0], quantity: 2 }] }),
    ).toMatchObject({ status: 400, code: 'fulfillment_quantity_exceeded' });
    // Nothing of the refused ones was written.
    expect((await adminOrder(t, order.id)).fulfillments).toHaveLength(1);
  });
});

describe('admin.order.update', () => {
  it('writes the email, the fields sent over the addresses and the metadata; event order.updated', async () => {
    const order = await placed();
    const before = order.shipping_address;
    const { order: updated } = await sdk.admin.order.update(order.id, {
      email: 'New.Address@Example.com',
      shipping_address: { address_1: '2 Side St', phone: '+49 30 1234' },
      billing_address: { company: 'Analytical Engines', country_code: country.toUpperCase() },
      metadata: { ticket: 'SUP-1' },
    });
    expect(updated.email).toBe('new.address@example.com');
    expect(updated.shipping_address).toEqual({ ...before, address_1: '2 Side St', phone: '+49 30 1234' });
    expect(updated.billing_address).toMatchObject({
      company: 'Analytical Engines',
      city: 'Springfield',
      country_code: country,
    });
    expect(updated.metadata).toEqual({ ticket: 'SUP-1' });
    expect((await adminOrder(t, order.id)).email).toBe('new.address@example.com');
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.updated']);
  });

  it('refuses another country, a bad email, unknown fields, a canceled or unknown order, with nothing written', async () => {
    const order = await placed();
    const other = freshCountry();
    expect(
      await refusal('POST', `/admin/orders/${order.id}`, { shipping_address: { country_code: other } }),
    ).toMatchObject({ status: 400, code: 'order_address_country_changed', type: 'invalid_data' });
    expect(await refusal('POST', `/admin/orders/${order.id}`, { email: 'not-an-email' })).toMatchObject({
      status: 400,
      code: 'invalid_request',
    });
    expect(await refusal('POST', `/admin/orders/${order.id}`, { status: 'completed' })).toMatchObject({
      status: 400,
      code: 'invalid_request',
    });
    expect(await refusal('POST', '/admin/orders/order_nope', { email: 'a@example.com' })).toMatchObject({
      status: 404,
      code: 'order_not_found',
    });
    await adminOk(t, `/admin/orders/${order.id}/cancel`);
    expect(await refusal('POST', `/admin/orders/${order.id}`, { email: 'a@example.com' })).toMatchObject({
      status: 400,
      code: 'order_canceled',
    });
    const detail = await adminOrder(t, order.id);
    expect(detail.email).toBe(order.email);
    expect(detail.shipping_address).toEqual(order.shipping_address);
    expect(await orderEventNames(t, order.id)).not.toContain('order.updated');
  });
});

describe('admin.order.listLineItems', () => {
  it("answers Medusa's order items; a line an edit added starts at the version the edit made", async () => {
    const order = await placed([2, 1]);
    const { order_items } = await sdk.admin.order.listLineItems(order.id);
    expect(order_items).toHaveLength(2);
    expect(order_items[0]).toMatchObject({
      order_id: order.id,
      item_id: order.items[0].id,
      version: 1,
      history: { version: { from: 1, to: 1 } },
      item: { id: order.items[0].id, quantity: 2, detail: expect.objectContaining({ fulfilled_quantity: 0 }) },
    });
    const one = await sdk.admin.order.listLineItems(order.id, { item_id: order.items[1].id });
    expect(one.order_items.map((i: Json) => i.item_id)).toEqual([order.items[1].id]);

    const extra = (await makeProduct(t)).variant;
    await adminOk(t, '/admin/order-edits', { order_id: order.id });
    await adminOk(t, `/admin/order-edits/${order.id}/items`, { items: [{ variant_id: extra.id, quantity: 1 }] });
    await adminOk(t, `/admin/order-edits/${order.id}/request`, {});
    await adminOk(t, `/admin/order-edits/${order.id}/confirm`, {});
    const after = (await sdk.admin.order.listLineItems(order.id)).order_items;
    expect(after.map((i: Json) => [i.version, i.history.version.from, i.history.version.to])).toEqual([
      [2, 1, 2],
      [2, 1, 2],
      [2, 2, 2],
    ]);
    expect(await refusal('GET', '/admin/orders/order_nope/line-items')).toMatchObject({
      status: 404,
      code: 'order_not_found',
    });
  });
});

describe('admin.order.updateOrderChange', () => {
  it("sets an active change's internal note; carry_over_promotions true, a closed or unknown change are refused", async () => {
    const order = await placed();
    const { order_change: change } = await adminOk(t, '/admin/order-edits', { order_id: order.id });
    const { order_change } = await sdk.admin.order.updateOrderChange(change.id, {
      carry_over_promotions: false,
      internal_note: 'Customer called',
    });
    expect(order_change).toMatchObject({
      id: change.id,
      order_id: order.id,
      status: 'pending',
      internal_note: 'Customer called',
      carry_over_promotions: false,
    });
    expect(await refusal('POST', `/admin/order-changes/${change.id}`, { carry_over_promotions: true })).toMatchObject({
      status: 400,
      code: 'order_change_promotions_not_carried',
    });
    expect(await refusal('POST', '/admin/order-changes/ordch_nope', { internal_note: 'x' })).toMatchObject({
      status: 404,
      code: 'order_change_not_found',
    });
    const canceled = await t.admin('DELETE', `/admin/order-edits/${order.id}`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await refusal('POST', `/admin/order-changes/${change.id}`, { internal_note: 'late' })).toMatchObject({
      status: 400,
      code: 'order_change_not_active',
    });
    const [stored] = await rows<{ internal_note: string }>(
      t.database.db,
      sql`select internal_note from order_changes where id = ${change.id}`,
    );
    expect(stored.internal_note).toBe('Customer called');
  });
});

describe('payment sessions of an order difference, from the desk', () => {
  /** A captured order that a confirmed edit grows by 1500: one unpaid collection. */
  async function owing() {
    const order = await placed();
    await adminOk(t, `/admin/orders/${order.id}/capture`);
    const extra = (await makeProduct(t)).variant;
    await adminOk(t, '/admin/order-edits', { order_id: order.id });
    await adminOk(t, `/admin/order-edits/${order.id}/items`, { items: [{ variant_id: extra.id, quantity: 1 }] });
    await adminOk(t, `/admin/order-edits/${order.id}/request`, {});
    await adminOk(t, `/admin/order-edits/${order.id}/confirm`, {});
    const pc = (await adminOrder(t, order.id)).payment_collections.find((c: Json) => c.status === 'not_paid');
    return { order, pc };
  }

  it('paymentCollection.createPaymentSession starts one; order.authorizePaymentSession authorizes it', async () => {
    const { order, pc } = await owing();
    expect(pc.amount).toBe(1500);
    const { payment_collection } = await sdk.admin.paymentCollection.createPaymentSession(pc.id, {
      provider_id: 'pp_system_default',
    });
    expect(payment_collection).toMatchObject({ id: pc.id, status: 'awaiting' });
    const [session] = payment_collection.payment_sessions;
    expect(session).toMatchObject({ provider_id: 'pp_system_default', amount: 1500 });

    const other = await placed();
    expect(
      await refusal('POST', `/admin/orders/${other.id}/payment-sessions/authorize`, { payment_session_id: session.id }),
    ).toMatchObject({ status: 404, code: 'payment_session_not_found' });

    const answer = await sdk.admin.order.authorizePaymentSession(order.id, session.id);
    expect(answer.is_authorized).toBe(true);
    const authorized = answer.order.payment_collections.find((c: Json) => c.id === pc.id);
    expect(authorized).toMatchObject({ status: 'authorized' });
    expect(authorized.payments).toEqual([expect.objectContaining({ amount: 1500, payment_session_id: session.id })]);
    // Asked again: already authorized, nothing new.
    const again = await sdk.admin.order.authorizePaymentSession(order.id, session.id);
    expect(again.is_authorized).toBe(true);
    expect(again.order.payment_collections.find((c: Json) => c.id === pc.id).payments).toHaveLength(1);

    await adminOk(t, `/admin/orders/${order.id}/capture`);
    expect((await adminOrder(t, order.id)).summary).toMatchObject({ pending_difference: 0 });
  });

  it('refuses a provider the region does not offer, a collection with nothing to pay, an unknown one', async () => {
    const { order, pc } = await owing();
    expect(
      await refusal('POST', `/admin/payment-collections/${pc.id}/payment-sessions`, { provider_id: 'pp_nope' }),
    ).toMatchObject({ status: 400, code: 'payment_providers_not_found' });
    await adminOk(t, `/admin/payment-collections/${pc.id}/mark-as-paid`, { order_id: order.id });
    expect(
      await refusal('POST', `/admin/payment-collections/${pc.id}/payment-sessions`, {
        provider_id: 'pp_system_default',
      }),
    ).toMatchObject({ status: 400, code: 'payment_collection_not_payable' });
    expect(
      await refusal('POST', '/admin/payment-collections/pay_col_nope/payment-sessions', {
        provider_id: 'pp_system_default',
      }),
    ).toMatchObject({ status: 404, code: 'payment_collection_not_found' });
    expect(
      await refusal('POST', `/admin/orders/${order.id}/payment-sessions/authorize`, {
        payment_session_id: 'payses_nope',
      }),
    ).toMatchObject({ status: 404, code: 'payment_session_not_found' });
  });
});

// Last: linking a location to the default channel changes where later checkouts take stock from.
describe('admin.order.listShippingOptions', () => {
  it("lists the options serving the order's address and channel, not return options nor other countries'", async () => {
    const order = await placed();
    const { stock_location: warehouse } = await sdk.admin.stockLocation.create({ name: `Warehouse ${uniq()}` });
    await sdk.admin.stockLocation.updateSalesChannels(warehouse.id, { add: [await defaultChannelId(t)] });
    const set = (
      await sdk.admin.stockLocation.createFulfillmentSet(warehouse.id, { name: `Parcels ${uniq()}`, type: 'shipping' })
    ).stock_location.fulfillment_sets[0];
    const zone = async (code: string) =>
      (
        await sdk.admin.fulfillmentSet.createServiceZone(set.id, {
          name: `Zone ${code}`,
          geo_zones: [{ type: 'country', country_code: code }],
        })
      ).fulfillment_set.service_zones.find((z: Json) => z.name === `Zone ${code}`);
    const home = await zone(country);
    const abroad = await zone(freshCountry());
    const option = async (name: string, zoneId: string, isReturn = false) =>
      (
        await sdk.admin.shippingOption.create({
          name,
          service_zone_id: zoneId,
          shipping_profile_id: 'sp_default',
          provider_id: 'manual_manual',
          price_type: 'flat',
          type: { label: name, description: name, code: name.toLowerCase() },
          prices: [{ currency_code: 'eur', amount: 495 }],
          rules: [{ attribute: 'is_return', operator: 'eq', value: String(isReturn) }],
        })
      ).shipping_option;
    const standard = await option('Standard', home.id);
    await option('Return', home.id, true);
    await option('Abroad', abroad.id);

    const { shipping_options } = await sdk.admin.order.listShippingOptions(order.id);
    expect(shipping_options.map((o: Json) => o.id)).toEqual([standard.id]);
    expect(shipping_options[0]).toMatchObject({
      name: 'Standard',
      provider_id: 'manual_manual',
      prices: [expect.objectContaining({ currency_code: 'eur', amount: 495 })],
    });
    expect(await refusal('GET', '/admin/orders/order_nope/shipping-options')).toMatchObject({
      status: 404,
      code: 'order_not_found',
    });
  });
});
