import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { makeProduct, makeRegion } from '../checkout/checkout.testing.ts';
import { adminOk, placeFulfilledOrder } from '../orders/orders.testing.ts';
import { dispatchAndSend, expectValidSignature, SECRET, webhookFixtures } from '../webhooks/webhooks.testing.ts';

let t: TestApp;
const fx = webhookFixtures(() => t);

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterEach(() => fx.cleanup());
afterAll(() => t.close());

const TABLES = [
  'audit_log',
  'outbox',
  'order_versions',
  'order_change_actions',
  'refunds',
  'return_items',
  'payment_collections',
  'order_line_items',
];
/** Row counts of every table a refused after-sale request could write to. */
async function footprint(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES)
    out[table] = (
      await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`)
    )[0].n;
  out.stock = (
    await rows<{ n: number }>(
      t.database.db,
      sql`select coalesce(sum(inventory_quantity), 0)::int as n from product_variants`,
    )
  )[0].n;
  return out;
}

describe('after-sale refusals write nothing', () => {
  it('a return received twice, a refund beyond what was paid: 4xx {type, message, code}, no row, no audit entry', async () => {
    const { order, line, paymentId } = await placeFulfilledOrder(t);
    const { return: ret } = await adminOk(t, '/admin/returns', { order_id: order.id });
    await adminOk(t, `/admin/returns/${ret.id}/request-items`, { items: [{ id: line.id, quantity: 1 }] });
    await adminOk(t, `/admin/returns/${ret.id}/request`, {});
    await adminOk(t, `/admin/returns/${ret.id}/receive`, {});
    await adminOk(t, `/admin/returns/${ret.id}/receive-items`, { items: [{ id: line.id, quantity: 1 }] });
    await adminOk(t, `/admin/returns/${ret.id}/receive/confirm`, {});

    const before = await footprint();
    const refused = [
      await t.admin('POST', `/admin/returns/${ret.id}/receive/confirm`, {}),
      await t.admin('POST', `/admin/returns/${ret.id}/receive`, {}),
      await t.admin('POST', `/admin/payments/${paymentId}/refund`, { amount: 4501 }),
      await t.admin('POST', `/admin/orders/${order.id}/refunds`, { amount: 4501 }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json()).sort()).toEqual(['code', 'message', 'type']);
    }
    expect(refused.map((r) => r.json().code)).toEqual([
      'order_change_not_active',
      'order_change_not_active',
      'refund_exceeds_captured',
      'refund_exceeds_captured',
    ]);
    expect(await footprint()).toEqual(before);
  }, 120_000);

  it('two operators confirming the same edit or exchange at once: one wins, the other writes nothing', async () => {
    const { order, line } = await placeFulfilledOrder(t);
    const extra = (await makeProduct(t)).variant;
    await adminOk(t, '/admin/order-edits', { order_id: order.id });
    await adminOk(t, `/admin/order-edits/${order.id}/items`, { items: [{ variant_id: extra.id, quantity: 1 }] });
    await adminOk(t, `/admin/order-edits/${order.id}/request`, {});
    let before = await footprint();
    const edits = await Promise.all([1, 2].map(() => t.admin('POST', `/admin/order-edits/${order.id}/confirm`, {})));
    expect(edits.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    let after = await footprint();
    // Exactly one confirmation's writes: one version, one audit entry, one line, one stock move.
    expect(after.audit_log - before.audit_log).toBe(1);
    expect(after.order_versions - before.order_versions).toBe(1);
    expect(after.order_line_items - before.order_line_items).toBe(1);
    expect(after.stock - before.stock).toBe(-1);

    const { exchange } = await adminOk(t, '/admin/exchanges', { order_id: order.id });
    await adminOk(t, `/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: line.id, quantity: 1 }] });
    await adminOk(t, `/admin/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: extra.id, quantity: 1 }],
    });
    before = await footprint();
    const swaps = await Promise.all([1, 2].map(() => t.admin('POST', `/admin/exchanges/${exchange.id}/request`, {})));
    expect(swaps.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(swaps.find((r) => r.statusCode === 400)!.json()).toMatchObject({ code: 'order_change_not_active' });
    after = await footprint();
    expect(after.audit_log - before.audit_log).toBe(1);
    expect(after.order_versions - before.order_versions).toBe(1);
    expect(after.return_items - before.return_items).toBe(1);
    expect(after.stock - before.stock).toBe(-1);
  }, 120_000);
});

describe('after-sale webhooks', () => {
  it('delivers order.return_requested, return_received, edit_confirmed, exchange_created and claim_created to a listening receiver', async () => {
    const receiver = await fx.receiver();
    await fx.subscribe(receiver.url, ['order.*']);
    const { order, line } = await placeFulfilledOrder(t);
    const extra = (await makeProduct(t)).variant;

    const { return: ret } = await adminOk(t, '/admin/returns', { order_id: order.id });
    await adminOk(t, `/admin/returns/${ret.id}/request-items`, { items: [{ id: line.id, quantity: 1 }] });
    await adminOk(t, `/admin/returns/${ret.id}/request`, {});
    await adminOk(t, `/admin/returns/${ret.id}/receive`, {});
    await adminOk(t, `/admin/returns/${ret.id}/receive-items`, { items: [{ id: line.id, quantity: 1 }] });
    await adminOk(t, `/admin/returns/${ret.id}/receive/confirm`, {});

    await adminOk(t, '/admin/order-edits', { order_id: order.id });
    await adminOk(t, `/admin/order-edits/${order.id}/items`, { items: [{ variant_id: extra.id, quantity: 1 }] });
    await adminOk(t, `/admin/order-edits/${order.id}/request`, {});
    await adminOk(t, `/admin/order-edits/${order.id}/confirm`, {});

    const { exchange } = await adminOk(t, '/admin/exchanges', { order_id: order.id });
    await adminOk(t, `/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: line.id, quantity: 1 }] });
    await adminOk(t, `/admin/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: extra.id, quantity: 1 }],
    });
    await adminOk(t, `/admin/exchanges/${exchange.id}/request`, {});

    const { claim } = await adminOk(t, '/admin/claims', { order_id: order.id, type: 'refund' });
    await adminOk(t, `/admin/claims/${claim.id}/claim-items`, {
      items: [{ id: line.id, quantity: 1, reason: 'missing_item' }],
    });
    await adminOk(t, `/admin/claims/${claim.id}/request`, {});

    await dispatchAndSend(t);
    // Events of this order only (earlier tests' events are delivered too).
    const afterSale = receiver.requests.filter(
      (r) =>
        /return_|edit_|exchange_|claim_/.test(String(r.headers['x-service-event'])) &&
        JSON.parse(r.body.toString('utf8')).id === order.id,
    );
    expect(afterSale.map((r) => r.headers['x-service-event'])).toEqual([
      'order.return_requested',
      'order.return_received',
      'order.edit_confirmed',
      'order.exchange_created',
      'order.claim_created',
    ]);
    for (const req of afterSale) {
      expectValidSignature(req.headers['x-service-signature'], req.body, SECRET, t.clock.now());
      expect(JSON.parse(req.body.toString('utf8'))).toMatchObject({ id: order.id, order_id: order.id });
    }
    const bodies = afterSale.map((r) => JSON.parse(r.body.toString('utf8')));
    expect(bodies[0]).toMatchObject({ return_id: ret.id });
    expect(bodies[3]).toMatchObject({ exchange_id: exchange.id, version: 5 });
    expect(bodies[4]).toMatchObject({ claim_id: claim.id, return_id: null, version: 6 });
  }, 120_000);
});
