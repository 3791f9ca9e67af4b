import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { adminOk, adminOrder, orderEventNames, placeOrder } from './orders.testing.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

const CAPTURE_OVER = 'You cannot capture more than the authorized amount substracted by what is already captured.';
const REFUND_OVER = 'You are not allowed to refund more than the captured amount';

describe('capture', () => {
  it('captures the whole payment by default: payment and order captured, one order.paid', async () => {
    const { order, paymentId } = await placeOrder(t); // 3 × 1500
    const { payment } = await adminOk(t, `/admin/payments/${paymentId}/capture`, {});
    expect(payment).toMatchObject({
      id: paymentId,
      amount: 4500,
      captured_amount: 4500,
      status: 'captured',
      currency_code: 'eur',
    });
    expect(payment.captured_at).toBe(t.clock.now().toISOString());
    expect(payment.captures).toEqual([expect.objectContaining({ amount: 4500, payment_id: paymentId })]);
    expect(payment.captures[0].id).toMatch(/^capt_/);
    const detail = await adminOrder(t, order.id);
    expect(detail.payment_status).toBe('captured');
    expect(detail.payment_collections[0]).toMatchObject({
      status: 'completed',
      payments: [expect.objectContaining({ status: 'captured' })],
    });
    expect(detail.summary).toMatchObject({
      authorized_total: 4500,
      captured_total: 4500,
      refunded_total: 0,
      paid_total: 4500,
      pending_difference: 0,
    });
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.paid']);
  });

  it('partial then the rest: partially_captured, then captured; order.paid only when full', async () => {
    const { order, paymentId } = await placeOrder(t);
    const first = await adminOk(t, `/admin/payments/${paymentId}/capture`, { amount: 1000 });
    expect(first.payment).toMatchObject({ captured_amount: 1000, status: 'partially_captured', captured_at: null });
    expect((await adminOrder(t, order.id)).payment_status).toBe('partially_captured');
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed']);
    const rest = await adminOk(t, `/admin/payments/${paymentId}/capture`);
    expect(rest.payment).toMatchObject({ captured_amount: 4500, status: 'captured' });
    expect(rest.payment.captures.map((c: { amount: number }) => c.amount)).toEqual([1000, 3500]);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.paid']);
  });

  it('more than authorized minus captured is refused, and nothing changes', async () => {
    const { order, paymentId } = await placeOrder(t);
    await adminOk(t, `/admin/payments/${paymentId}/capture`, { amount: 4000 });
    const over = await t.admin('POST', `/admin/payments/${paymentId}/capture`, { amount: 501 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ type: 'not_allowed', code: 'capture_exceeds_authorized', message: CAPTURE_OVER });
    const detail = await adminOrder(t, order.id);
    expect(detail.payment_collections[0].payments[0]).toMatchObject({ captured_amount: 4000 });
    expect(detail.payment_collections[0].payments[0].captures).toHaveLength(1);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed']);
  });

  it('concurrent captures cannot together exceed the authorization', async () => {
    const { order, paymentId } = await placeOrder(t);
    const results = await Promise.all(
      [1, 2, 3].map(() => t.admin('POST', `/admin/payments/${paymentId}/capture`, { amount: 2000 })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 400]);
    const [payment] = (await adminOrder(t, order.id)).payment_collections[0].payments;
    expect(payment).toMatchObject({ captured_amount: 4000, status: 'partially_captured' });
    expect(payment.captures).toHaveLength(2);
  });

  it('a fully captured payment cannot be captured again', async () => {
    const { paymentId } = await placeOrder(t);
    await adminOk(t, `/admin/payments/${paymentId}/capture`);
    const again = await t.admin('POST', `/admin/payments/${paymentId}/capture`);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      type: 'not_allowed',
      code: 'payment_fully_captured',
      message: `Payment ${paymentId} is already fully captured`,
    });
    const more = await t.admin('POST', `/admin/payments/${paymentId}/capture`, { amount: 1 });
    expect(more.json().message).toBe(CAPTURE_OVER);
  });

  it('POST /admin/orders/{id}/capture captures every authorized payment and answers the order', async () => {
    const { order, paymentId } = await placeOrder(t, { lines: [1, 2] });
    const { order: captured } = await adminOk(t, `/admin/orders/${order.id}/capture`);
    expect(captured).toMatchObject({ id: order.id, payment_status: 'captured' });
    expect(captured.payment_collections[0].payments[0]).toMatchObject({
      id: paymentId,
      captured_amount: 4500,
      status: 'captured',
    });
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.paid']);
    const again = await t.admin('POST', `/admin/orders/${order.id}/capture`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: 'order_nothing_to_capture',
      type: 'not_allowed',
      message: `Order ${order.id} has no authorized amount left to capture`,
    });
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.paid']);
  });

  it('validation: amount 0, negative, fractional, a string, unknown fields', async () => {
    const { paymentId, order } = await placeOrder(t);
    for (const body of [{ amount: 0 }, { amount: -5 }, { amount: 1.5 }, { amount: '100' }, { amount: 100, foo: 1 }]) {
      const res = await t.admin('POST', `/admin/payments/${paymentId}/capture`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
    const orderBody = await t.admin('POST', `/admin/orders/${order.id}/capture`, { amount: 5 });
    expect(orderBody.statusCode).toBe(400);
    expect(orderBody.json().message).toContain("Unrecognized fields: 'amount'");
    expect((await adminOrder(t, order.id)).payment_status).toBe('authorized');
  });

  it('404s, 401 without a token, 403 for a viewer (who may still read)', async () => {
    const { paymentId, order } = await placeOrder(t);
    const missing = await t.admin('POST', '/admin/payments/pay_missing/capture', {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      type: 'not_found',
      code: 'payment_not_found',
      message: 'Payment with id: pay_missing was not found',
    });
    expect((await t.admin('POST', '/admin/orders/order_missing/capture', {})).statusCode).toBe(404);
    expect(
      (await t.inject({ method: 'POST', url: `/admin/payments/${paymentId}/capture`, payload: {} })).statusCode,
    ).toBe(401);
    const viewer = { token: t.viewerToken };
    for (const url of [
      `/admin/payments/${paymentId}/capture`,
      `/admin/payments/${paymentId}/refund`,
      `/admin/orders/${order.id}/capture`,
    ]) {
      expect((await t.admin('POST', url, {}, viewer)).statusCode).toBe(403);
    }
    expect((await t.admin('POST', `/admin/orders/${order.id}/refunds`, { amount: 1 }, viewer)).statusCode).toBe(403);
    expect((await t.admin('GET', `/admin/payments/${paymentId}`, undefined, viewer)).statusCode).toBe(200);
    expect((await adminOrder(t, order.id)).payment_status).toBe('authorized');
  });
});

describe('refunds', () => {
  it('before any capture: 400, nothing written, no event', async () => {
    const { order, paymentId } = await placeOrder(t);
    const viaOrder = await t.admin('POST', `/admin/orders/${order.id}/refunds`, { amount: 100 });
    expect(viaOrder.statusCode).toBe(400);
    expect(viaOrder.json()).toEqual({
      code: 'order_nothing_to_refund',
      type: 'not_allowed',
      message: `Order ${order.id} has no captured payment: capture it before refunding`,
    });
    const viaPayment = await t.admin('POST', `/admin/payments/${paymentId}/refund`, { amount: 100 });
    expect(viaPayment.statusCode).toBe(400);
    expect(viaPayment.json().type).toBe('not_allowed');
    const detail = await adminOrder(t, order.id);
    expect(detail.payment_collections[0].payments[0].refunds).toEqual([]);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed']);
  });

  it('partial refund through the order (reason, note), then the rest through the payment', async () => {
    const { order, paymentId } = await placeOrder(t);
    await adminOk(t, `/admin/orders/${order.id}/capture`);
    const { order: partly } = await adminOk(t, `/admin/orders/${order.id}/refunds`, {
      amount: 1200,
      reason: 'damaged',
      note: 'box crushed',
    });
    expect(partly.payment_status).toBe('partially_refunded');
    const [payment] = partly.payment_collections[0].payments;
    expect(payment).toMatchObject({ refunded_amount: 1200, status: 'partially_refunded' });
    expect(payment.refunds).toEqual([
      expect.objectContaining({
        amount: 1200,
        reason: 'damaged',
        note: 'box crushed',
        payment_id: paymentId,
        order_id: order.id,
      }),
    ]);
    expect(payment.refunds[0].id).toMatch(/^ref_/);
    expect(payment.refunds[0].created_by).toMatch(/^user_/);
    expect(partly.summary).toMatchObject({
      captured_total: 4500,
      refunded_total: 1200,
      paid_total: 4500,
      transaction_total: 3300,
      pending_difference: 1200,
    });
    expect(partly.payment_collections[0].status).toBe('partially_refunded');

    const rest = await adminOk(t, `/admin/payments/${paymentId}/refund`, {
      note: 'goodwill',
      refund_reason_id: 'refr_1',
    });
    expect(rest.payment).toMatchObject({ refunded_amount: 4500, status: 'refunded' });
    expect(rest.payment.refunds[1]).toMatchObject({
      amount: 3300,
      note: 'goodwill',
      refund_reason_id: 'refr_1',
      reason: null,
    });
    expect((await adminOrder(t, order.id)).payment_status).toBe('refunded');
    expect(await orderEventNames(t, order.id)).toEqual([
      'order.placed',
      'order.paid',
      'order.refunded',
      'order.refunded',
    ]);
  });

  it('capturing the rest after a partial refund still makes the order paid', async () => {
    const { order, paymentId } = await placeOrder(t);
    await adminOk(t, `/admin/payments/${paymentId}/capture`, { amount: 2000 });
    await adminOk(t, `/admin/payments/${paymentId}/refund`, { amount: 500 });
    const { payment } = await adminOk(t, `/admin/payments/${paymentId}/capture`);
    expect(payment).toMatchObject({ captured_amount: 4500, refunded_amount: 500, status: 'partially_refunded' });
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.refunded', 'order.paid']);
  });

  it('more than captured minus refunded is refused whole', async () => {
    const { order, paymentId } = await placeOrder(t);
    await adminOk(t, `/admin/payments/${paymentId}/capture`, { amount: 2000 });
    const over = await t.admin('POST', `/admin/orders/${order.id}/refunds`, { amount: 2001 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ type: 'not_allowed', message: REFUND_OVER, code: 'refund_exceeds_captured' });
    await adminOk(t, `/admin/payments/${paymentId}/refund`, { amount: 1500 });
    const overPayment = await t.admin('POST', `/admin/payments/${paymentId}/refund`, { amount: 501 });
    expect(overPayment.json()).toEqual({ type: 'not_allowed', message: REFUND_OVER, code: 'refund_exceeds_captured' });
    const detail = await adminOrder(t, order.id);
    expect(detail.payment_collections[0].payments[0]).toMatchObject({ refunded_amount: 1500 });
    expect(detail.payment_status).toBe('partially_refunded');
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.refunded']);
  });

  it('validation: amount required, integer > 0; reason and note at most 255; unknown fields', async () => {
    const { order, paymentId } = await placeOrder(t);
    await adminOk(t, `/admin/orders/${order.id}/capture`);
    const bad = [
      {},
      { amount: 0 },
      { amount: 10.5 },
      { amount: '10' },
      { amount: 10, reason: 'x'.repeat(256) },
      { amount: 10, note: 'x'.repeat(256) },
      { amount: 10, refund_reason_id: 'r' },
    ];
    for (const body of bad) {
      const res = await t.admin('POST', `/admin/orders/${order.id}/refunds`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
    for (const body of [{ amount: 0 }, { reason: 'y'.repeat(256) }, { foo: 'bar' }]) {
      expect(
        (await t.admin('POST', `/admin/payments/${paymentId}/refund`, body)).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
    const max = await t.admin('POST', `/admin/orders/${order.id}/refunds`, {
      amount: 10,
      reason: 'r'.repeat(255),
      note: 'n'.repeat(255),
    });
    expect(max.statusCode, max.body).toBe(200);
    expect((await t.admin('POST', '/admin/orders/order_nope/refunds', { amount: 1 })).statusCode).toBe(404);
    expect((await t.admin('POST', '/admin/payments/pay_nope/refund', {})).statusCode).toBe(404);
  });
});

describe('GET /admin/payments', () => {
  it('lists with captures and refunds, filters by id and order_id, pages', async () => {
    const a = await placeOrder(t);
    const b = await placeOrder(t);
    await adminOk(t, `/admin/payments/${a.paymentId}/capture`);
    const byOrder = await t.admin('GET', `/admin/payments?order_id=${a.order.id}`);
    expect(byOrder.json()).toMatchObject({ count: 1, limit: 20, offset: 0 });
    expect(byOrder.json().payments[0]).toMatchObject({
      id: a.paymentId,
      status: 'captured',
      captures: [expect.objectContaining({ amount: 4500 })],
      refunds: [],
    });
    const byIds = await t.admin('GET', `/admin/payments?id[]=${a.paymentId}&id[]=${b.paymentId}&limit=1&offset=1`);
    expect(byIds.json()).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(byIds.json().payments.map((p: { id: string }) => p.id)).toEqual([[a.paymentId, b.paymentId].sort()[1]]);
    expect((await t.admin('GET', `/admin/payments/${b.paymentId}`)).json().payment).toMatchObject({
      id: b.paymentId,
      status: 'authorized',
      captured_amount: 0,
    });
    expect((await t.admin('GET', '/admin/payments/pay_nope')).statusCode).toBe(404);
    expect((await t.admin('GET', '/admin/payments?limit=5000')).json().limit).toBe(1000);
  });
});
