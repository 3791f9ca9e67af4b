import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeProduct, makeRegion, stockOf } from '../checkout/checkout.testing.ts';
import { adminOrder, orderEventNames, placeFulfilledOrder } from '../orders/orders.testing.ts';
import { shippingOption } from '../cart-pricing/pricing.testing.ts';

let t: TestApp;
let sdk: Sdk;
let region: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t);
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

const shipping = async (amount: number) => (await shippingOption(t, region.id, amount, 'Ship')).id;

const versions = async (orderId: string) =>
  rows<{ version: number; snapshot: unknown }>(
    t.database.db,
    sql`select version, snapshot from order_versions where order_id = ${orderId} order by version`,
  );

type Pc = { status: string; amount: number };

describe('exchanges through the Medusa SDK', () => {
  it('swaps one item for a dearer one: stock held at once, the difference collected, the return restocked without crediting twice', async () => {
    const { order, line, variants } = await placeFulfilledOrder(t);
    const dearer = (await makeProduct(t, { prices: [{ currency_code: 'eur', amount: 2500 }] })).variant;
    const stockA = await stockOf(t, variants[0].id);
    const stockB = await stockOf(t, dearer.id);
    const outShipping = await shipping(300);

    const { exchange } = await sdk.admin.exchange.create({ order_id: order.id });
    expect(exchange).toMatchObject({ order_id: order.id, status: 'pending', return_id: null });
    const inbound = await sdk.admin.exchange.addInboundItems(exchange.id, { items: [{ id: line.id, quantity: 1 }] });
    expect((inbound as unknown as { exchange: { return_id: string } }).exchange.return_id).toMatch(/^return_/);
    const tooMany = await t.admin('POST', `/admin/exchanges/${exchange.id}/inbound/items`, {
      items: [{ id: line.id, quantity: 3 }],
    });
    expect(tooMany.statusCode).toBe(400);
    await sdk.admin.exchange.addOutboundItems(exchange.id, { items: [{ variant_id: dearer.id, quantity: 1 }] });
    const shipped = await sdk.admin.exchange.addOutboundShipping(exchange.id, { shipping_option_id: outShipping });
    // Preview: 2500 out + 300 shipping − 1500 back = 1300 to pay.
    expect(shipped.order_preview.summary.pending_difference).toBe(1300);
    expect(await stockOf(t, dearer.id)).toBe(stockB);

    const events = await orderEventNames(t, order.id);
    const both = await Promise.all([1, 2].map(() => t.admin('POST', `/admin/exchanges/${exchange.id}/request`, {})));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const refused = both.find((r) => r.statusCode === 400)!.json();
    expect(refused).toMatchObject({ type: 'not_allowed', code: 'order_change_not_active' });
    const done = both.find((r) => r.statusCode === 200)!.json();
    expect(done.exchange).toMatchObject({ status: 'confirmed', difference_due: 1300 });
    expect(done.return).toMatchObject({ status: 'requested', items: [expect.objectContaining({ quantity: 1 })] });
    expect((await orderEventNames(t, order.id)).slice(events.length)).toEqual(['order.exchange_created']);

    // The new item's stock is taken and held for its line at once.
    expect(await stockOf(t, dearer.id)).toBe(stockB - 1);
    let detail = await adminOrder(t, order.id);
    const added = detail.items.find((i: { variant_id: string }) => i.variant_id === dearer.id);
    expect(added).toMatchObject({ quantity: 1, unit_price: 2500 });
    expect(detail.version).toBe(2);
    expect(detail.summary).toMatchObject({ paid_total: 4500, current_order_total: 5800, pending_difference: 1300 });
    const owed = detail.payment_collections.filter((pc: Pc) => pc.status === 'not_paid');
    expect(owed).toEqual([expect.objectContaining({ amount: 1300 })]);

    // The shopper pays; the returned item arrives sellable: stock back, no second credit.
    await sdk.admin.paymentCollection.markAsPaid(owed[0].id, { order_id: order.id });
    const returnId = done.exchange.return_id as string;
    await sdk.admin.return.initiateReceive(returnId, {});
    await sdk.admin.return.receiveItems(returnId, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.return.confirmReceive(returnId, {});
    expect(await stockOf(t, variants[0].id)).toBe(stockA + 1);
    detail = await adminOrder(t, order.id);
    expect(detail.summary).toMatchObject({ paid_total: 5800, refunded_total: 0, pending_difference: 0 });
    const [v1] = await versions(order.id);
    expect((v1.snapshot as { total: number }).total).toBe(4500);

    const listed = await sdk.admin.exchange.list({ order_id: order.id } as never);
    expect(listed.exchanges.map((e) => e.id)).toEqual([exchange.id]);
    // Its return arrived: it can no longer be undone.
    const late = await t.admin('POST', `/admin/exchanges/${exchange.id}/cancel`, {});
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('order_change_not_active');
  }, 120_000);

  it('a confirmed exchange whose items have not moved is undone as a new version: stock, money and return go back', async () => {
    const { order, line, variants } = await placeFulfilledOrder(t);
    const dearer = (await makeProduct(t, { prices: [{ currency_code: 'eur', amount: 2500 }] })).variant;
    const stockB = await stockOf(t, dearer.id);
    const { exchange } = await sdk.admin.exchange.create({ order_id: order.id });
    await sdk.admin.exchange.addInboundItems(exchange.id, { items: [{ id: line.id, quantity: 2 }] });
    await sdk.admin.exchange.addOutboundItems(exchange.id, { items: [{ variant_id: dearer.id, quantity: 1 }] });
    const done = await sdk.admin.exchange.request(exchange.id, {});
    expect(done.order_preview.summary.pending_difference).toBe(-500);
    expect(await stockOf(t, dearer.id)).toBe(stockB - 1);
    const undone = await sdk.admin.exchange.cancel(exchange.id, {});
    expect(undone.exchange).toMatchObject({ status: 'canceled', difference_due: -500 });
    expect(await stockOf(t, dearer.id)).toBe(stockB);
    const detail = await adminOrder(t, order.id);
    expect(detail.version).toBe(3);
    expect(detail.summary).toMatchObject({ current_order_total: 4500, paid_total: 4500, pending_difference: 0 });
    const ret = await sdk.admin.return.retrieve((done.exchange as unknown as { return_id: string }).return_id);
    expect(ret.return.status).toBe('canceled');
    // The items it asked back may be asked back again.
    const again = (await sdk.admin.exchange.create({ order_id: order.id })).exchange;
    await sdk.admin.exchange.addInboundItems(again.id, { items: [{ id: line.id, quantity: 3 }] });
    expect(variants).toHaveLength(1);
  }, 120_000);

  it('a cheaper swap leaves money owed to the shopper, refunded through the payment; a dropped exchange applies nothing', async () => {
    const { order, line, paymentId } = await placeFulfilledOrder(t);
    const cheaper = (await makeProduct(t, { prices: [{ currency_code: 'eur', amount: 1000 }] })).variant;
    const { exchange } = await sdk.admin.exchange.create({ order_id: order.id });
    await sdk.admin.exchange.addInboundItems(exchange.id, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.exchange.addOutboundItems(exchange.id, { items: [{ variant_id: cheaper.id, quantity: 1 }] });
    const done = await sdk.admin.exchange.request(exchange.id, {});
    expect((done.exchange as unknown as { difference_due: number }).difference_due).toBe(-500);
    expect(done.order_preview.summary.pending_difference).toBe(-500);
    await sdk.admin.payment.refund(paymentId, { amount: 500 });
    expect((await adminOrder(t, order.id)).summary).toMatchObject({ refunded_total: 500, pending_difference: 0 });

    const other = await placeFulfilledOrder(t);
    const stock = await stockOf(t, cheaper.id);
    const second = (await sdk.admin.exchange.create({ order_id: other.order.id })).exchange;
    await sdk.admin.exchange.addOutboundItems(second.id, { items: [{ variant_id: cheaper.id, quantity: 1 }] });
    const alone = await t.admin('POST', `/admin/exchanges/${second.id}/request`, {});
    expect(alone.statusCode).toBe(400);
    expect(alone.json().code).toBe('order_change_invalid');
    const dropped = await sdk.admin.exchange.cancelRequest(second.id);
    expect(dropped).toMatchObject({ id: second.id, object: 'exchange', deleted: true });
    expect(await stockOf(t, cheaper.id)).toBe(stock);
    expect((await adminOrder(t, other.order.id)).version).toBe(1);
  }, 120_000);
});

describe('claims through the Medusa SDK', () => {
  it('replace: a broken item claimed, a replacement sent at no charge, its return restocks nothing owed', async () => {
    const { order, line, variants } = await placeFulfilledOrder(t);
    const stockA = await stockOf(t, variants[0].id);
    const { claim } = await sdk.admin.claim.create({ order_id: order.id, type: 'replace' });
    const bad = await t.admin('POST', `/admin/claims/${claim.id}/claim-items`, {
      items: [{ id: line.id, quantity: 1, reason: 'not_a_reason' }],
    });
    expect(bad.statusCode).toBe(400);
    await sdk.admin.claim.addItems(claim.id, {
      items: [{ id: line.id, quantity: 1, reason: 'production_failure' as never }],
    });
    await sdk.admin.claim.addInboundItems(claim.id, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.claim.addOutboundItems(claim.id, { items: [{ variant_id: variants[0].id, quantity: 1 }] });
    const done = await sdk.admin.claim.request(claim.id, {});
    expect(done.claim).toMatchObject({
      type: 'replace',
      refund_amount: 0,
      claim_items: [expect.objectContaining({ quantity: 1, reason: 'production_failure' })],
    });
    expect(await stockOf(t, variants[0].id)).toBe(stockA - 1);
    let detail = await adminOrder(t, order.id);
    expect(detail.summary).toMatchObject({ current_order_total: 4500, paid_total: 4500, pending_difference: 0 });
    expect(detail.items).toHaveLength(2);
    expect(await orderEventNames(t, order.id)).toContain('order.claim_created');

    const returnId = (done.claim as unknown as { return_id: string }).return_id;
    await sdk.admin.return.initiateReceive(returnId, {});
    await sdk.admin.return.receiveItems(returnId, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.return.confirmReceive(returnId, {});
    expect(await stockOf(t, variants[0].id)).toBe(stockA);
    detail = await adminOrder(t, order.id);
    expect(detail.summary.pending_difference).toBe(0);
  }, 120_000);

  it('refund: a missing item credited, refunded once; more than fulfilled is refused; a claim canceled before confirmation', async () => {
    const { order, line, paymentId } = await placeFulfilledOrder(t);
    const { claim } = await sdk.admin.claim.create({ order_id: order.id, type: 'refund' });
    const over = await t.admin('POST', `/admin/claims/${claim.id}/claim-items`, {
      items: [{ id: line.id, quantity: 4 }],
    });
    expect(over.statusCode).toBe(400);
    await sdk.admin.claim.addItems(claim.id, {
      items: [{ id: line.id, quantity: 2, reason: 'missing_item' as never }],
    });
    const done = await sdk.admin.claim.request(claim.id, {});
    expect(done.claim).toMatchObject({ refund_amount: 3000, return_id: null });
    expect(done.order_preview.summary.pending_difference).toBe(-3000);
    await sdk.admin.payment.refund(paymentId, { amount: 3000 });
    const again = await t.admin('POST', `/admin/payments/${paymentId}/refund`, { amount: 1501 });
    expect(again.statusCode).toBe(400);
    expect((await adminOrder(t, order.id)).summary).toMatchObject({ refunded_total: 3000, pending_difference: 0 });

    const second = (await sdk.admin.claim.create({ order_id: order.id, type: 'refund' })).claim;
    const twice = await t.admin('POST', `/admin/claims/${second.id}/claim-items`, {
      items: [{ id: line.id, quantity: 2 }],
    });
    expect(twice.statusCode).toBe(400);
    const canceled = await sdk.admin.claim.cancel(second.id, {});
    expect(canceled.claim).toMatchObject({ status: 'canceled' });
    expect((await sdk.admin.claim.list({ order_id: order.id } as never)).claims).toHaveLength(2);
  }, 120_000);
});

type Action = { id: string; action: string; amount: number; internal_note: string | null; details: Json };
type Json = Record<string, unknown>;
const shippingActions = (answer: unknown) => {
  const { actions } = (answer as { order_preview: { order_change: { actions: Action[] } } }).order_preview.order_change;
  const of = (direction: string) =>
    actions.find((a) => a.action === 'SHIPPING_ADD' && (a.details.direction ?? 'inbound') === direction)!;
  return { inbound: of('inbound'), outbound: of('outbound') };
};

describe('changing the shipping of a pending exchange or claim through the Medusa SDK', () => {
  it('prices each direction in place, puts back the option’s price with null, and keeps the directions apart', async () => {
    const { order, line } = await placeFulfilledOrder(t);
    const back = await shipping(400);
    const out = await shipping(300);

    const { exchange } = await sdk.admin.exchange.create({ order_id: order.id });
    await sdk.admin.exchange.addInboundItems(exchange.id, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.exchange.addInboundShipping(exchange.id, { shipping_option_id: back });
    const both = await sdk.admin.exchange.addOutboundShipping(exchange.id, { shipping_option_id: out });
    const { inbound, outbound } = shippingActions(both);
    expect([inbound.amount, outbound.amount]).toEqual([400, 300]);

    const free = await sdk.admin.exchange.updateInboundShipping(exchange.id, inbound.id, {
      custom_amount: 0,
      internal_note: 'on us',
    });
    expect(shippingActions(free).inbound).toMatchObject({ id: inbound.id, amount: 0, internal_note: 'on us' });
    const cheaper = await sdk.admin.exchange.updateOutboundShipping(exchange.id, outbound.id, {
      custom_amount: 150,
      metadata: { carrier: 'bike' },
    });
    expect(shippingActions(cheaper).outbound).toMatchObject({
      id: outbound.id,
      amount: 150,
      details: expect.objectContaining({ metadata: { carrier: 'bike' } }),
    });
    // The inbound action is not the outbound shipping; nothing changes.
    const crossed = await t.admin('POST', `/admin/exchanges/${exchange.id}/outbound/shipping-method/${inbound.id}`, {
      custom_amount: 1,
    });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json()).toMatchObject({ code: 'swap_action_not_found' });
    const restored = await sdk.admin.exchange.updateOutboundShipping(exchange.id, outbound.id, {
      custom_amount: null,
    } as never);
    expect(shippingActions(restored).outbound).toMatchObject({ amount: 300 });
    expect(shippingActions(restored).inbound).toMatchObject({ amount: 0 });
    const negative = await t.admin('POST', `/admin/exchanges/${exchange.id}/inbound/shipping-method/${inbound.id}`, {
      custom_amount: -5,
    });
    expect(negative.statusCode).toBe(400);
    await sdk.admin.exchange.cancelRequest(exchange.id);

    const { claim } = await sdk.admin.claim.create({ order_id: order.id, type: 'replace' });
    await sdk.admin.claim.addItems(claim.id, {
      items: [{ id: line.id, quantity: 1, reason: 'production_failure' as never }],
    });
    await sdk.admin.claim.addInboundItems(claim.id, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.claim.addInboundShipping(claim.id, { shipping_option_id: back });
    const claimed = await sdk.admin.claim.addOutboundShipping(claim.id, { shipping_option_id: out });
    const legs = shippingActions(claimed);
    const inbound2 = await sdk.admin.claim.updateInboundShipping(claim.id, legs.inbound.id, { custom_amount: 50 });
    expect(shippingActions(inbound2).inbound).toMatchObject({ id: legs.inbound.id, amount: 50 });
    const outbound2 = await sdk.admin.claim.updateOutboundShipping(claim.id, legs.outbound.id, { custom_amount: 0 });
    expect(shippingActions(outbound2).outbound).toMatchObject({ id: legs.outbound.id, amount: 0 });
    const confirmed = await sdk.admin.claim.request(claim.id, {});
    expect((confirmed as unknown as { return: { shipping_methods: unknown[] } }).return.shipping_methods).toEqual([
      expect.objectContaining({ amount: 50 }),
    ]);
    const late = await t.admin('POST', `/admin/claims/${claim.id}/inbound/shipping-method/${legs.inbound.id}`, {
      custom_amount: 1,
    });
    expect(late.statusCode).toBe(400);
  }, 300_000);
});
