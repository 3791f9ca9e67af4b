import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startParceloShop, type ParceloShop } from '../fulfillment/parcelo.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * Returns shipped back through a carrier: a return option of the Parcelo plugin (against its
 * local stand-in) makes a return parcel when the request is confirmed, from the desk or the
 * store; its label and tracking show on the return; a refusal writes nothing; receiving the
 * return marks the parcel delivered, canceling the return cancels it at the carrier.
 */

let shop: ParceloShop;
let returnOption: Json;
beforeAll(async () => {
  shop = await startParceloShop();
  returnOption = await shop.makeReturnOption(450);
}, 300_000);
afterAll(() => shop?.close());

const fulfilledOrder = (quantity: number) => shop.fulfilledOrder(quantity);

/** The desk's return of `quantity` units shipped back by the return option, up to its confirmation. */
async function deskReturn(order: Json, quantity: number) {
  const { t } = shop;
  const ret = (await t.admin('POST', '/admin/returns', { order_id: order.id })).json().return;
  const asked = await t.admin('POST', `/admin/returns/${ret.id}/request-items`, {
    items: [{ id: order.items[0].id, quantity }],
  });
  expect(asked.statusCode, asked.body).toBe(200);
  const shipping = await t.admin('POST', `/admin/returns/${ret.id}/shipping-method`, {
    shipping_option_id: returnOption.id,
  });
  expect(shipping.statusCode, shipping.body).toBe(200);
  return ret.id as string;
}

const returnsMade = () => shop.parcelo.requests.filter((r) => r.path === '/v1/returns');

describe('return parcels through the fulfilment provider', () => {
  it("the desk's confirmed request makes a return label at the carrier, shown on the return; received, it is delivered", async () => {
    const { t, parcelo } = shop;
    const order = await fulfilledOrder(2);
    const id = await deskReturn(order, 2);

    // The carrier refuses (a wrong key): the request stays unconfirmed and nothing is kept.
    await shop.configure('pk_wrong');
    const refused = await t.admin('POST', `/admin/returns/${id}/request`, {});
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ code: 'fulfillment_provider_failed' });
    expect((await t.admin('GET', `/admin/returns/${id}`)).json().return).toMatchObject({
      status: 'open',
      fulfillments: [],
    });
    await shop.configure(parcelo.apiKey);

    const requested = await t.admin('POST', `/admin/returns/${id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    const ret = (await t.admin('GET', `/admin/returns/${id}`)).json().return;
    expect(ret.status).toBe('requested');
    expect(ret.fulfillments).toHaveLength(1);
    const [parcel] = ret.fulfillments;
    const shipment = parcelo.shipments.get(parcel.data.shipment_id);
    expect(shipment).toMatchObject({ reference: parcel.id, service: 'parcel-return', status: 'label_created' });
    expect(parcel).toMatchObject({
      provider_id: 'fp_parcelo',
      shipping_option_id: returnOption.id,
      location_id: shop.location.id,
      items: [{ line_item_id: order.items[0].id, quantity: 2 }],
      labels: [
        {
          tracking_number: shipment?.tracking_number,
          tracking_url: shipment?.tracking_url,
          label_url: shipment?.label.url,
        },
      ],
      delivered_at: null,
      canceled_at: null,
    });
    // Picked up at the shopper's address, going back to the warehouse.
    expect(returnsMade().at(-1)?.body).toMatchObject({
      reference: parcel.id,
      from: { country: shop.region.countries[0].iso_2.toUpperCase(), postcode: '20095' },
      return_to: 'Warehouse',
      parcels: [{ quantity: 2 }],
    });

    await t.admin('POST', `/admin/returns/${id}/receive`, {});
    await t.admin('POST', `/admin/returns/${id}/receive-items`, { items: [{ id: order.items[0].id, quantity: 2 }] });
    const received = await t.admin('POST', `/admin/returns/${id}/receive/confirm`, {});
    expect(received.statusCode, received.body).toBe(200);
    const after = (await t.admin('GET', `/admin/returns/${id}`)).json().return;
    expect(after.status).toBe('received');
    expect(after.fulfillments[0].delivered_at).not.toBeNull();
  }, 120_000);

  it("the shopper's return with return shipping gets its label at once; canceled, the carrier cancels it", async () => {
    const { t, parcelo } = shop;
    const order = await fulfilledOrder(1);
    const made = await t.store('POST', '/store/returns', {
      order_id: order.id,
      email: order.email,
      items: [{ id: order.items[0].id, quantity: 1 }],
      return_shipping: { option_id: returnOption.id },
    });
    expect(made.statusCode, made.body).toBe(200);
    const ret = made.json().return;
    expect(ret.fulfillments).toEqual([
      expect.objectContaining({
        provider_id: 'fp_parcelo',
        labels: [expect.objectContaining({ tracking_number: expect.stringMatching(/^PX\d+DE$/) })],
      }),
    ]);
    const shipmentId = ret.fulfillments[0].data.shipment_id;
    expect(parcelo.shipments.get(shipmentId)?.status).toBe('label_created');

    const canceled = await t.admin('POST', `/admin/returns/${ret.id}/cancel`, {});
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().return.fulfillments[0].canceled_at).not.toBeNull();
    expect(parcelo.shipments.get(shipmentId)?.status).toBe('canceled');
  });

  it('a return without return shipping makes no parcel', async () => {
    const { t } = shop;
    const order = await fulfilledOrder(1);
    const before = returnsMade().length;
    const ret = (await t.admin('POST', '/admin/returns', { order_id: order.id })).json().return;
    await t.admin('POST', `/admin/returns/${ret.id}/request-items`, {
      items: [{ id: order.items[0].id, quantity: 1 }],
    });
    const requested = await t.admin('POST', `/admin/returns/${ret.id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect((await t.admin('GET', `/admin/returns/${ret.id}`)).json().return.fulfillments).toEqual([]);
    expect(returnsMade().length).toBe(before);
  });
});

describe('a slow or refusing carrier holds no order lock (return labels and cancellations)', () => {
  it("the request's label is asked with the order unlocked; a request dropped meanwhile cancels the label", async () => {
    const { t, parcelo } = shop;
    const order = await fulfilledOrder(2);
    const id = await deskReturn(order, 1);
    const made = returnsMade().length;
    const slow = parcelo.hold('/v1/returns');
    const requesting = t.admin('POST', `/admin/returns/${id}/request`, {});
    await slow.arrived;
    // The carrier has not answered: the order is not locked, another write to it goes through.
    const note = await t.admin('POST', `/admin/orders/${order.id}`, { metadata: { note: 'label coming' } });
    expect(note.statusCode, note.body).toBe(200);
    slow.release();
    const requested = await requesting;
    expect(requested.statusCode, requested.body).toBe(200);
    expect(returnsMade().length).toBe(made + 1);
    const ret = (await t.admin('GET', `/admin/returns/${id}`)).json().return;
    expect(ret.status).toBe('requested');
    expect(ret.fulfillments).toHaveLength(1);
    expect(parcelo.shipments.get(ret.fulfillments[0].data.shipment_id)?.status).toBe('label_created');

    // The request is dropped while its carrier makes the label: nothing is written, the label is canceled.
    const other = await deskReturn(order, 1);
    const held = parcelo.hold('/v1/returns');
    const racing = t.admin('POST', `/admin/returns/${other}/request`, {});
    await held.arrived;
    const dropped = await t.admin('DELETE', `/admin/returns/${other}/request`);
    expect(dropped.statusCode, dropped.body).toBe(200);
    held.release();
    expect((await racing).statusCode).toBeGreaterThanOrEqual(400);
    const orphan = returnsMade().at(-1)?.body as { reference: string };
    const shipment = [...parcelo.shipments.values()].find((s) => s.reference === orphan.reference);
    expect(shipment?.status).toBe('canceled');
    expect((await t.admin('GET', `/admin/returns/${other}`)).json().return).toMatchObject({
      status: 'canceled',
      fulfillments: [],
    });
  }, 120_000);

  it('a cancellation asks the carrier with the order unlocked; a refusing carrier leaves the return as it was', async () => {
    const { t, parcelo } = shop;
    const order = await fulfilledOrder(1);
    const id = await deskReturn(order, 1);
    expect((await t.admin('POST', `/admin/returns/${id}/request`, {})).statusCode).toBe(200);
    const [parcel] = (await t.admin('GET', `/admin/returns/${id}`)).json().return.fulfillments;
    const shipmentId = parcel.data.shipment_id;

    await shop.configure('pk_wrong');
    const refused = await t.admin('POST', `/admin/returns/${id}/cancel`, {});
    await shop.configure(parcelo.apiKey);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ code: 'fulfillment_provider_failed' });
    expect((await t.admin('GET', `/admin/returns/${id}`)).json().return).toMatchObject({
      status: 'requested',
      fulfillments: [expect.objectContaining({ id: parcel.id, canceled_at: null })],
    });
    expect(parcelo.shipments.get(shipmentId)?.status).toBe('label_created');

    const slow = parcelo.hold(`/v1/shipments/${shipmentId}/cancel`);
    const canceling = t.admin('POST', `/admin/returns/${id}/cancel`, {});
    await slow.arrived;
    const note = await t.admin('POST', `/admin/orders/${order.id}`, { metadata: { note: 'return dropped' } });
    expect(note.statusCode, note.body).toBe(200);
    slow.release();
    const canceled = await canceling;
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().return).toMatchObject({ status: 'canceled' });
    expect(canceled.json().return.fulfillments[0].canceled_at).not.toBeNull();
    expect(parcelo.shipments.get(shipmentId)?.status).toBe('canceled');
  }, 120_000);
});

describe('a return label whose carrier did not answer in time', () => {
  /** The carrier's return shipments asked for since `from` (whatever became of them). */
  const labelsSince = (from: number) => {
    const refs = new Set(
      returnsMade()
        .slice(from)
        .map((r) => r.body.reference),
    );
    return [...shop.parcelo.shipments.values()].filter((s) => refs.has(s.reference));
  };

  it("the desk's request sent again gets the label the carrier made meanwhile, not a second", async () => {
    const { t } = shop;
    const order = await fulfilledOrder(1);
    const id = await deskReturn(order, 1);
    const from = returnsMade().length;
    const timedOut = await shop.timeOutOnce('/v1/returns', () => t.admin('POST', `/admin/returns/${id}/request`, {}));
    expect(timedOut.statusCode, timedOut.body).toBe(504);
    expect(timedOut.json()).toMatchObject({ code: 'fulfillment_provider_timeout' });
    expect((await t.admin('GET', `/admin/returns/${id}`)).json().return).toMatchObject({
      status: 'open',
      fulfillments: [],
    });
    // The carrier made the label after all; the retry carries the same idempotency key.
    await expect.poll(() => labelsSince(from).length).toBe(1);
    const requested = await t.admin('POST', `/admin/returns/${id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(returnsMade().length).toBe(from + 2);
    const [shipment] = labelsSince(from);
    expect(labelsSince(from)).toHaveLength(1);
    const ret = (await t.admin('GET', `/admin/returns/${id}`)).json().return;
    expect(ret.status).toBe('requested');
    expect(ret.fulfillments).toEqual([
      expect.objectContaining({
        id: shipment.reference,
        labels: [expect.objectContaining({ tracking_number: shipment.tracking_number })],
      }),
    ]);
    // Kept on the return, the label is no longer an attempt: another return of the order asks anew.
    const other = await deskReturn(await fulfilledOrder(1), 1);
    expect((await t.admin('POST', `/admin/returns/${other}/request`, {})).statusCode).toBe(200);
    expect(labelsSince(from)).toHaveLength(2);
  }, 120_000);

  it("the shopper's return sent again gets the same label", async () => {
    const { t } = shop;
    const order = await fulfilledOrder(1);
    const body = {
      order_id: order.id,
      email: order.email,
      items: [{ id: order.items[0].id, quantity: 1 }],
      return_shipping: { option_id: returnOption.id },
    };
    const from = returnsMade().length;
    const timedOut = await shop.timeOutOnce('/v1/returns', () => t.store('POST', '/store/returns', body));
    expect(timedOut.statusCode, timedOut.body).toBe(504);
    expect((await t.admin('GET', `/admin/returns?order_id=${order.id}`)).json().returns).toEqual([]);
    await expect.poll(() => labelsSince(from).length).toBe(1);
    const made = await t.store('POST', '/store/returns', body);
    expect(made.statusCode, made.body).toBe(200);
    const [shipment] = labelsSince(from);
    expect(labelsSince(from)).toHaveLength(1);
    expect(made.json().return.fulfillments).toEqual([
      expect.objectContaining({
        id: shipment.reference,
        labels: [expect.objectContaining({ tracking_number: shipment.tracking_number })],
      }),
    ]);
  }, 120_000);
});

describe('a return label no retry can take over any more is canceled at the carrier', () => {
  /** The carrier's return shipments made under the references asked since `from`, in order. */
  const labelsSince = (from: number) => {
    const refs = [
      ...new Set(
        returnsMade()
          .slice(from)
          .map((r) => String(r.body.reference)),
      ),
    ];
    return refs.flatMap((ref) => [...shop.parcelo.shipments.values()].filter((s) => s.reference === ref));
  };
  const statuses = (from: number) => labelsSince(from).map((s) => s.status);
  /** The desk's return of one of the order's two units, its confirmation timed out at the carrier. */
  async function timedOutReturn() {
    const { t } = shop;
    const order = await fulfilledOrder(2);
    const id = await deskReturn(order, 1);
    const preview = await t.admin('GET', `/admin/orders/${order.id}/preview`);
    const shipping = preview.json().order.order_change.actions.find((a: Json) => a.action === 'SHIPPING_ADD');
    const from = returnsMade().length;
    const timedOut = await shop.timeOutOnce('/v1/returns', () => t.admin('POST', `/admin/returns/${id}/request`, {}));
    expect(timedOut.statusCode, timedOut.body).toBe(504);
    // The carrier made the label all the same, under the attempt's id.
    await expect.poll(() => labelsSince(from).length).toBe(1);
    const askMore = () =>
      t.admin('POST', `/admin/returns/${id}/request-items`, { items: [{ id: order.items[0].id, quantity: 1 }] });
    return { id, from, askMore, shippingId: shipping.id as string };
  }

  it('a request changed after a timeout: the first label is canceled at the carrier, confirmed it gets a new one', async () => {
    const { t } = shop;
    const { id, from, askMore } = await timedOutReturn();
    expect((await askMore()).statusCode).toBe(200);
    // Other items are another label: the one asked before is no retry's any more.
    expect(statuses(from)).toEqual(['canceled']);
    const requested = await t.admin('POST', `/admin/returns/${id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(statuses(from)).toEqual(['canceled', 'label_created']);
    const kept = labelsSince(from)[1];
    expect((await t.admin('GET', `/admin/returns/${id}`)).json().return.fulfillments).toEqual([
      expect.objectContaining({ id: kept.reference, data: expect.objectContaining({ shipment_id: kept.id }) }),
    ]);
  }, 120_000);

  it('changed and timed out again: the first label is canceled when the second is asked, the retry keeps the second', async () => {
    const { t } = shop;
    const { id, from, askMore } = await timedOutReturn();
    expect((await askMore()).statusCode).toBe(200);
    const again = await shop.timeOutOnce('/v1/returns', () => t.admin('POST', `/admin/returns/${id}/request`, {}));
    expect(again.statusCode, again.body).toBe(504);
    await expect.poll(() => statuses(from)).toEqual(['canceled', 'label_created']);
    const requested = await t.admin('POST', `/admin/returns/${id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(statuses(from)).toEqual(['canceled', 'label_created']);
    expect(requested.json().return.fulfillments).toEqual([
      expect.objectContaining({ id: labelsSince(from)[1].reference }),
    ]);
  }, 120_000);

  it('a request dropped after a timeout cancels the label its carrier made', async () => {
    const { t } = shop;
    const { id, from } = await timedOutReturn();
    const dropped = await t.admin('DELETE', `/admin/returns/${id}/request`);
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(statuses(from)).toEqual(['canceled']);
  }, 120_000);

  /** An exchange of one of the order's two units, its confirmation timed out at the carrier. */
  async function timedOutExchange() {
    const { t } = shop;
    const order = await fulfilledOrder(2);
    const { exchange } = (await t.admin('POST', '/admin/exchanges', { order_id: order.id })).json();
    const base = `/admin/exchanges/${exchange.id}`;
    await t.admin('POST', `${base}/inbound/items`, { items: [{ id: order.items[0].id, quantity: 1 }] });
    await t.admin('POST', `${base}/inbound/shipping-method`, { shipping_option_id: returnOption.id });
    await t.admin('POST', `${base}/outbound/items`, {
      items: [{ variant_id: order.items[0].variant_id, quantity: 1 }],
    });
    const from = returnsMade().length;
    const timedOut = await shop.timeOutOnce('/v1/returns', () => t.admin('POST', `${base}/request`, {}));
    expect(timedOut.statusCode, timedOut.body).toBe(504);
    await expect.poll(() => statuses(from)).toEqual(['label_created']);
    return { base, from, line: order.items[0].id as string };
  }

  it('an exchange dropped after its confirmation timed out cancels the label its carrier made', async () => {
    const { base, from } = await timedOutExchange();
    const dropped = await shop.t.admin('DELETE', `${base}/request`);
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(statuses(from)).toEqual(['canceled']);
  }, 120_000);

  it("an exchange's items asked back changed after a timeout: the label is canceled, confirmed it gets a new one", async () => {
    const { t } = shop;
    const { base, from, line } = await timedOutExchange();
    const more = await t.admin('POST', `${base}/inbound/items`, { items: [{ id: line, quantity: 1 }] });
    expect(more.statusCode, more.body).toBe(200);
    expect(statuses(from)).toEqual(['canceled']);
    const requested = await t.admin('POST', `${base}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(statuses(from)).toEqual(['canceled', 'label_created']);
  }, 120_000);

  it('a request confirmed without return shipping after a timeout cancels the label its carrier made', async () => {
    const { t } = shop;
    const { id, from, shippingId } = await timedOutReturn();
    expect((await t.admin('DELETE', `/admin/returns/${id}/shipping-method/${shippingId}`)).statusCode).toBe(200);
    const requested = await t.admin('POST', `/admin/returns/${id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.json().return.fulfillments).toEqual([]);
    expect(statuses(from)).toEqual(['canceled']);
  }, 120_000);
});

describe('return shipping priced by the carrier (a calculated return option)', () => {
  let calculated: Json;
  const rate = (units: number) => shop.rate(units);
  const rateAsks = () => shop.rateAsks();

  beforeAll(async () => {
    calculated = await shop.makeReturnOption('calculated');
  });

  it('the desk adds it: the carrier quotes the items asked back, with the order unlocked meanwhile', async () => {
    const { t, parcelo } = shop;
    const order = await fulfilledOrder(2);
    const ret = (await t.admin('POST', '/admin/returns', { order_id: order.id })).json().return;
    await t.admin('POST', `/admin/returns/${ret.id}/request-items`, {
      items: [{ id: order.items[0].id, quantity: 2 }],
    });
    // An operator's custom amount is not the carrier's to price.
    const before = rateAsks().length;
    const custom = await t.admin('POST', `/admin/returns/${ret.id}/shipping-method`, {
      shipping_option_id: calculated.id,
      custom_amount: 0,
    });
    expect(custom.statusCode, custom.body).toBe(200);
    expect(rateAsks().length).toBe(before);

    const slow = parcelo.hold('/v1/rates');
    const adding = t.admin('POST', `/admin/returns/${ret.id}/shipping-method`, { shipping_option_id: calculated.id });
    await slow.arrived;
    // The carrier has not answered: the order is not locked, so another write to it goes through.
    const note = await t.admin('POST', `/admin/orders/${order.id}`, { metadata: { note: 'return coming' } });
    expect(note.statusCode, note.body).toBe(200);
    slow.release();
    const added = await adding;
    expect(added.statusCode, added.body).toBe(200);
    expect(rateAsks().length).toBe(before + 1);
    expect(rateAsks().at(-1)?.body).toMatchObject({
      service: 'parcel-return',
      to: { country: shop.region.countries[0].iso_2.toUpperCase(), postcode: '20095' },
      parcels: [{ quantity: 2 }],
      currency: 'eur',
    });
    // A custom price, then the option's own put back: for a calculated option, the carrier's quote again.
    const shipping = (answer: Json) =>
      answer.order_preview.order_change.actions.find((a: Json) => a.action === 'SHIPPING_ADD');
    const leg = shipping(added.json());
    const path = `/admin/returns/${ret.id}/shipping-method/${leg.id}`;
    expect(shipping((await t.admin('POST', path, { custom_amount: 5 })).json())).toMatchObject({ amount: 5 });
    const restored = await t.admin('POST', path, { custom_amount: null });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(shipping(restored.json())).toMatchObject({ id: leg.id, amount: rate(2) });
    const requested = await t.admin('POST', `/admin/returns/${ret.id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    const after = (await t.admin('GET', `/admin/returns/${ret.id}`)).json().return;
    expect(after.shipping_methods).toEqual([
      expect.objectContaining({ shipping_option_id: calculated.id, amount: rate(2) }),
    ]);
  });

  it('the items asked back change after it was chosen: the carrier prices them again; a custom amount stays', async () => {
    const { t } = shop;
    const order = await fulfilledOrder(3);
    const line = order.items[0].id;
    const ret = (await t.admin('POST', '/admin/returns', { order_id: order.id })).json().return;
    const base = `/admin/returns/${ret.id}`;
    await t.admin('POST', `${base}/request-items`, { items: [{ id: line, quantity: 1 }] });
    const actions = (answer: { json(): Json }) => answer.json().order_preview.order_change.actions as Json[];
    const shipping = (answer: { json(): Json }) => actions(answer).find((a) => a.action === 'SHIPPING_ADD');
    const chosen = await t.admin('POST', `${base}/shipping-method`, { shipping_option_id: calculated.id });
    expect(shipping(chosen)).toMatchObject({ amount: rate(1) });

    const more = await t.admin('POST', `${base}/request-items`, { items: [{ id: line, quantity: 1 }] });
    expect(more.statusCode, more.body).toBe(200);
    expect(shipping(more)).toMatchObject({ amount: rate(2) });
    const [first, second] = actions(more).filter((a) => a.action === 'RETURN_ITEM');
    const changed = await t.admin('POST', `${base}/request-items/${first.id}`, { quantity: 2 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(shipping(changed)).toMatchObject({ amount: rate(3) });
    const removed = await t.admin('DELETE', `${base}/request-items/${second.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(shipping(removed)).toMatchObject({ amount: rate(2) });
    expect(rateAsks().at(-1)?.body).toMatchObject({ parcels: [{ quantity: 2 }] });

    // The operator's price is not the carrier's to change.
    const leg = shipping(removed);
    expect(shipping(await t.admin('POST', `${base}/shipping-method/${leg.id}`, { custom_amount: 7 }))).toMatchObject({
      amount: 7,
    });
    const asked = rateAsks().length;
    const again = await t.admin('POST', `${base}/request-items`, { items: [{ id: line, quantity: 1 }] });
    expect(again.statusCode, again.body).toBe(200);
    expect(shipping(again)).toMatchObject({ amount: 7 });
    expect(rateAsks().length).toBe(asked);
    const requested = await t.admin('POST', `${base}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.json().return.shipping_methods).toEqual([expect.objectContaining({ amount: 7 })]);
  }, 120_000);

  it('the store return with it is charged the carrier’s price; a carrier that refuses writes no return', async () => {
    const { t, parcelo } = shop;
    const order = await fulfilledOrder(1);
    const body = {
      order_id: order.id,
      email: order.email,
      items: [{ id: order.items[0].id, quantity: 1 }],
      return_shipping: { option_id: calculated.id },
    };
    await shop.configure('pk_wrong');
    const refused = await t.store('POST', '/store/returns', body);
    await shop.configure(parcelo.apiKey);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ code: 'fulfillment_provider_failed' });
    expect((await t.admin('GET', `/admin/returns?order_id=${order.id}`)).json().returns).toEqual([]);

    const made = await t.store('POST', '/store/returns', body);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().return.shipping_methods).toEqual([
      expect.objectContaining({ shipping_option_id: calculated.id, amount: rate(1) }),
    ]);
  });
});
