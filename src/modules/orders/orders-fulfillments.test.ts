import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { adminOk, adminOrder, orderEventNames, placeOrder } from './orders.testing.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

const fulfil = (orderId: string, body: unknown) =>
  t.admin('POST', `/admin/orders/${orderId}/fulfillments`, body as never);
const detailOf = (order: { items: { id: string; detail: Record<string, number> }[] }) =>
  Object.fromEntries(
    order.items.map((i) => [
      i.id,
      [i.detail.fulfilled_quantity, i.detail.shipped_quantity, i.detail.delivered_quantity],
    ]),
  );

async function fulfilledOrder(lines = [3]) {
  const placed = await placeOrder(t, { lines });
  const { order } = await adminOk(t, `/admin/orders/${placed.order.id}/fulfillments`, {
    items: placed.order.items.map((i) => ({ item_id: i.id, quantity: i.quantity })),
  });
  return { order, fulfillmentId: order.fulfillments[0].id as string };
}

describe('fulfillments', () => {
  it('partial (spec shape), then the rest (Medusa shape); quantities and statuses follow; order.fulfilled each time', async () => {
    const { order } = await placeOrder(t, { lines: [3, 1] });
    const [a, b] = order.items;
    const first = await fulfil(order.id, {
      items: [{ item_id: a.id, quantity: 2 }],
      no_notification: true,
      metadata: { box: 'small' },
    });
    expect(first.statusCode, first.body).toBe(200);
    const one = first.json().order;
    expect(one.fulfillment_status).toBe('partially_fulfilled');
    expect(detailOf(one)).toEqual({ [a.id]: [2, 0, 0], [b.id]: [0, 0, 0] });
    expect(one.fulfillments).toHaveLength(1);
    const f = one.fulfillments[0];
    expect(f.id).toMatch(/^ful_/);
    expect(f).toMatchObject({
      order_id: order.id,
      no_notification: true,
      metadata: { box: 'small' },
      shipped_at: null,
      delivered_at: null,
      canceled_at: null,
      labels: [],
    });
    expect(f.items).toEqual([expect.objectContaining({ line_item_id: a.id, quantity: 2 })]);

    // A location that keeps the items: the default one, where checkout reserved them.
    const [{ location_id: home }] = await rows<{ location_id: string }>(
      t.database.db,
      sql`select location_id from inventory_defaults`,
    );
    const second = await fulfil(order.id, {
      items: [
        { id: a.id, quantity: 1 },
        { id: b.id, quantity: 1 },
      ],
      location_id: home,
    });
    expect(second.statusCode, second.body).toBe(200);
    const two = second.json().order;
    expect(two.fulfillment_status).toBe('fulfilled');
    expect(detailOf(two)).toEqual({ [a.id]: [3, 0, 0], [b.id]: [1, 0, 0] });
    expect(two.fulfillments[1]).toMatchObject({ location_id: home, no_notification: false });

    const events = await rows<{ name: string; payload: { fulfillment: { id: string }; no_notification: boolean } }>(
      t.database.db,
      sql`select name, payload from outbox where payload->>'id' = ${order.id} and name = 'order.fulfilled' order by id`,
    );
    expect(events.map((e) => [e.payload.fulfillment.id, e.payload.no_notification])).toEqual([
      [f.id, true],
      [two.fulfillments[1].id, false],
    ]);
  });

  it('more than is unfulfilled is refused, with nothing written and no event', async () => {
    const { order } = await placeOrder(t, { lines: [2] });
    const [item] = order.items;
    await adminOk(t, `/admin/orders/${order.id}/fulfillments`, { items: [{ item_id: item.id, quantity: 1 }] });
    const over = await fulfil(order.id, { items: [{ item_id: item.id, quantity: 2 }] });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      code: 'fulfillment_quantity_exceeded',
      type: 'not_allowed',
      message: `Cannot fulfill 2 of item ${item.id}: only 1 of 2 left to fulfill`,
    });
    // The same line twice in one request counts as the sum.
    const split = await fulfil(order.id, {
      items: [
        { item_id: item.id, quantity: 1 },
        { id: item.id, quantity: 1 },
      ],
    });
    expect(split.statusCode).toBe(400);
    const detail = await adminOrder(t, order.id);
    expect(detail.fulfillments).toHaveLength(1);
    expect(detail.items[0].detail.fulfilled_quantity).toBe(1);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.fulfilled']);
  });

  it('validation: unknown line, both or neither of item_id and id, quantity 0, no items, unknown fields, unknown shipping option', async () => {
    const { order } = await placeOrder(t);
    const id = order.items[0].id;
    const cases: [unknown, string][] = [
      [
        { items: [{ item_id: 'ordli_nope', quantity: 1 }] },
        `Item with id: ordli_nope is not a line of order ${order.id}`,
      ],
      [
        { items: [{ item_id: id, id, quantity: 1 }] },
        'Each item must name its order line with exactly one of item_id and id',
      ],
      [{ items: [{ quantity: 1 }] }, 'Each item must name its order line with exactly one of item_id and id'],
      [{ items: [{ item_id: id, quantity: 0 }] }, 'items.0.quantity'],
      [{ items: [] }, 'items'],
      [{}, "Field 'items' is required"],
      [{ items: [{ item_id: id, quantity: 1 }], foo: 1 }, "Unrecognized fields: 'foo'"],
      [{ items: [{ item_id: id, quantity: 1, bar: 2 }] }, "Unrecognized fields: 'items.0.bar'"],
      [{ items: [{ item_id: id, quantity: '1' }] }, 'items.0.quantity'],
      [
        { items: [{ item_id: id, quantity: 1 }], shipping_option_id: 'so_nope' },
        'Shipping option with id: so_nope was not found',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await fulfil(order.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
      expect(res.json().message).toContain(message);
    }
    expect((await adminOrder(t, order.id)).fulfillments).toEqual([]);
    expect((await fulfil('order_nope', { items: [{ item_id: id, quantity: 1 }] })).statusCode).toBe(404);
    expect(
      (
        await t.admin(
          'POST',
          `/admin/orders/${order.id}/fulfillments`,
          { items: [{ item_id: id, quantity: 1 }] },
          { token: t.viewerToken },
        )
      ).statusCode,
    ).toBe(403);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed']);
  });
});

describe('shipments and delivery', () => {
  it('ships a fulfillment with labels: shipped quantities, partially_shipped then shipped, order.shipped', async () => {
    const { order } = await placeOrder(t, { lines: [2] });
    const item = order.items[0];
    const f1 = (
      await adminOk(t, `/admin/orders/${order.id}/fulfillments`, { items: [{ item_id: item.id, quantity: 1 }] })
    ).order.fulfillments[0];
    const labels = [
      {
        tracking_number: 'TRK1',
        tracking_url: 'https://track.example/TRK1',
        label_url: 'https://labels.example/1.pdf',
      },
    ];
    const shipped = await adminOk(t, `/admin/orders/${order.id}/fulfillments/${f1.id}/shipments`, {
      labels,
      items: [{ id: item.id, quantity: 1 }],
    });
    expect(shipped.order.fulfillment_status).toBe('partially_shipped');
    expect(shipped.order.fulfillments[0].shipped_at).toBe(t.clock.now().toISOString());
    expect(shipped.order.fulfillments[0].labels).toEqual([expect.objectContaining(labels[0])]);
    expect(detailOf(shipped.order)).toEqual({ [item.id]: [1, 1, 0] });

    const f2 = (
      await adminOk(t, `/admin/orders/${order.id}/fulfillments`, { items: [{ item_id: item.id, quantity: 1 }] })
    ).order.fulfillments[1];
    expect((await adminOrder(t, order.id)).fulfillment_status).toBe('partially_shipped');
    const all = await adminOk(t, `/admin/orders/${order.id}/fulfillments/${f2.id}/shipments`);
    expect(all.order.fulfillment_status).toBe('shipped');
    expect(detailOf(all.order)).toEqual({ [item.id]: [2, 2, 0] });
    expect(await orderEventNames(t, order.id)).toEqual([
      'order.placed',
      'order.fulfilled',
      'order.shipped',
      'order.fulfilled',
      'order.shipped',
    ]);
  });

  it('refusals: shipping twice, items that are not the whole fulfillment, unknown fulfillment, bad labels', async () => {
    const { order, fulfillmentId } = await fulfilledOrder([3]);
    const item = order.items[0];
    const ship = (body: unknown, fid = fulfillmentId) =>
      t.admin('POST', `/admin/orders/${order.id}/fulfillments/${fid}/shipments`, body as never);
    const partial = await ship({ items: [{ id: item.id, quantity: 2 }] });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().message).toBe(
      `A shipment ships all of fulfillment ${fulfillmentId}: items must list each of its items with its full quantity`,
    );
    expect((await ship({ labels: [{ tracking_number: 'x' }] })).statusCode).toBe(400);
    expect((await ship({ foo: 1 })).statusCode).toBe(400);
    const missing = await ship({}, 'ful_nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      code: 'fulfillment_not_found',
      type: 'not_found',
      message: 'Fulfillment with id: ful_nope was not found',
    });
    await adminOk(t, `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/shipments`, {});
    const twice = await ship({});
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({
      code: 'fulfillment_already_shipped',
      type: 'not_allowed',
      message: `Fulfillment ${fulfillmentId} has already been shipped`,
    });
    expect((await adminOrder(t, order.id)).items[0].detail.shipped_quantity).toBe(3);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.fulfilled', 'order.shipped']);
  });

  it('delivered only after shipping, and only once', async () => {
    const { order, fulfillmentId } = await fulfilledOrder([1]);
    const deliver = () => t.admin('POST', `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/mark-as-delivered`);
    const early = await deliver();
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({
      code: 'fulfillment_not_shipped',
      type: 'not_allowed',
      message: `Fulfillment ${fulfillmentId} has not been shipped yet: create its shipment first`,
    });
    await adminOk(t, `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/shipments`);
    t.clock.advance(60_000);
    const done = await deliver();
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().order.fulfillment_status).toBe('delivered');
    expect(done.json().order.fulfillments[0].delivered_at).toBe(t.clock.now().toISOString());
    expect(done.json().order.items[0].detail.delivered_quantity).toBe(1);
    const twice = await deliver();
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({
      code: 'fulfillment_already_delivered',
      type: 'not_allowed',
      message: 'Fulfillment has already been marked delivered',
    });
    expect(
      (await t.admin('POST', `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/mark-as-delivered`, { foo: 1 }))
        .statusCode,
    ).toBe(400);
  });

  it('partially_delivered while another parcel is on its way', async () => {
    const { order } = await placeOrder(t, { lines: [2] });
    const item = order.items[0];
    for (let i = 0; i < 2; i++)
      await adminOk(t, `/admin/orders/${order.id}/fulfillments`, { items: [{ item_id: item.id, quantity: 1 }] });
    const [f1, f2] = (await adminOrder(t, order.id)).fulfillments;
    await adminOk(t, `/admin/orders/${order.id}/fulfillments/${f1.id}/shipments`);
    await adminOk(t, `/admin/orders/${order.id}/fulfillments/${f2.id}/shipments`);
    const { order: after } = await adminOk(t, `/admin/orders/${order.id}/fulfillments/${f1.id}/mark-as-delivered`);
    expect(after.fulfillment_status).toBe('partially_delivered');
  });
});

describe('canceling a fulfillment', () => {
  it('before shipping: its units are unfulfilled again and can be fulfilled anew', async () => {
    const { order, fulfillmentId } = await fulfilledOrder([2]);
    const { order: after } = await adminOk(t, `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/cancel`);
    expect(after.fulfillment_status).toBe('not_fulfilled');
    expect(after.fulfillments[0].canceled_at).toBe(t.clock.now().toISOString());
    expect(after.items[0].detail.fulfilled_quantity).toBe(0);
    const again = await t.admin('POST', `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/cancel`);
    expect(again.json()).toEqual({
      code: 'fulfillment_canceled',
      type: 'not_allowed',
      message: `Fulfillment ${fulfillmentId} has been canceled`,
    });
    const shipCanceled = await t.admin('POST', `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/shipments`, {});
    expect(shipCanceled.statusCode).toBe(400);
    const refulfil = await fulfil(order.id, { items: [{ item_id: order.items[0].id, quantity: 2 }] });
    expect(refulfil.statusCode, refulfil.body).toBe(200);
    expect(refulfil.json().order.fulfillment_status).toBe('fulfilled');
  });

  it('after shipping: refused, nothing changes', async () => {
    const { order, fulfillmentId } = await fulfilledOrder([1]);
    await adminOk(t, `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/shipments`);
    const res = await t.admin('POST', `/admin/orders/${order.id}/fulfillments/${fulfillmentId}/cancel`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'fulfillment_shipped_not_cancelable',
      type: 'not_allowed',
      message: `Fulfillment ${fulfillmentId} has been shipped and can no longer be canceled`,
    });
    const detail = await adminOrder(t, order.id);
    expect(detail.fulfillments[0].canceled_at).toBeNull();
    expect(detail.fulfillment_status).toBe('shipped');
  });
});
