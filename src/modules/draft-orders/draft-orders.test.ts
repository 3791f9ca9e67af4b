import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeProduct, makeRegion, stockOf, uniq } from '../checkout/checkout.testing.ts';
import { placeOrder } from '../orders/orders.testing.ts';
import { shippingOption } from '../cart-pricing/pricing.testing.ts';

let t: TestApp;
let sdk: Sdk;
let region: { id: string; currency_code: string };

beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t);
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

const shipping = async (amount = 700) => (await shippingOption(t, region.id, amount, 'Courier')).id;

async function customer(email = `draft-${uniq()}@example.com`) {
  const res = await t.admin('POST', '/admin/customers', { email, first_name: 'Ada' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().customer as { id: string; email: string };
}

/** What a refused request must leave as it was. */
const footprint = async (orderId: string) =>
  (
    await rows<Record<string, unknown>>(
      t.database.db,
      sql`select o.display_id, o.status, o.is_draft_order, o.total, o.payment_status,
            (select count(*)::int from order_line_items l where l.order_id = o.id) as lines,
            (select coalesce(sum(reserved_quantity), 0)::int from order_line_items l where l.order_id = o.id) as reserved,
            (select count(*)::int from payments p where p.order_id = o.id) as payments,
            (select count(*)::int from reservation_items r join order_line_items l on l.id = r.line_item_id where l.order_id = o.id) as holds,
            (select count(*)::int from audit_log a where a.resource_id = o.id) as audits
          from orders o where o.id = ${orderId}`,
    )
  )[0];

describe('draft orders through the Medusa SDK', () => {
  it('builds a draft for a customer, edits it, converts it paid: order number, stock reserved, money settled', async () => {
    const buyer = await customer();
    const { variant } = await makeProduct(t, { stock: 5 });
    const extra = (await makeProduct(t, { stock: 5 })).variant;
    const option = await shipping(700);
    const stockBefore = await stockOf(t, variant.id);

    const { draft_order: draft } = await sdk.admin.draftOrder.create({
      region_id: region.id,
      customer_id: buyer.id,
      items: [
        { variant_id: variant.id, quantity: 2 },
        { title: 'Gift wrapping', unit_price: 350, quantity: 1 } as never,
      ],
      shipping_methods: [{ shipping_option_id: option } as never],
      shipping_address: { first_name: 'Ada', address_1: '1 Main St', city: 'Paris', country_code: 'fr' },
    });
    expect(draft).toMatchObject({ status: 'draft', is_draft_order: true, email: buyer.email, total: 3000 + 350 + 700 });
    const custom = draft.items.find((i: { variant_id: string | null }) => i.variant_id === null)!;
    expect(custom).toMatchObject({ title: 'Gift wrapping', unit_price: 350, variant: null });
    // Nothing held yet, and placed orders do not list it.
    expect(await stockOf(t, variant.id)).toBe(stockBefore);
    const listed = await sdk.admin.draftOrder.list();
    expect(listed.draft_orders.map((d: { id: string }) => d.id)).toContain(draft.id);
    const orders = await t.admin('GET', '/admin/orders?limit=100');
    expect(orders.json().orders.map((o: { id: string }) => o.id)).not.toContain(draft.id);
    const drafts = await t.admin('GET', '/admin/orders?status=draft&limit=100');
    expect(drafts.json().orders.map((o: { id: string }) => o.id)).toContain(draft.id);

    // Edit: add an item, drop the wrapping, change the shipping price; preview first.
    await sdk.admin.draftOrder.beginEdit(draft.id);
    const added = await sdk.admin.draftOrder.addItems(draft.id, { items: [{ variant_id: extra.id, quantity: 1 }] });
    expect(added.draft_order_preview.items).toHaveLength(3);
    await sdk.admin.draftOrder.updateItem(draft.id, custom.id, { quantity: 0 });
    const method = draft.shipping_methods[0];
    const shipped = await sdk.admin.draftOrder.updateShippingMethod(draft.id, method.id, { custom_amount: 0 });
    expect(shipped.draft_order_preview.shipping_methods.map((m: { amount: number }) => m.amount)).toEqual([0]);
    expect(shipped.draft_order_preview.summary.current_order_total).toBe(3000 + 1500);
    expect((await sdk.admin.draftOrder.retrieve(draft.id)).draft_order.total).toBe(4050);
    await sdk.admin.draftOrder.requestEdit(draft.id);
    const confirmed = await sdk.admin.draftOrder.confirmEdit(draft.id);
    expect(confirmed.draft_order_preview).toMatchObject({ total: 4500, version: 2 });
    expect(await stockOf(t, extra.id)).toBe(5);

    const { order } = await sdk.admin.draftOrder.convertToOrder(draft.id, { mark_as_paid: true } as never);
    expect(order).toMatchObject({ id: draft.id, status: 'pending', is_draft_order: false, payment_status: 'captured' });
    expect(order.summary).toMatchObject({ paid_total: 4500, pending_difference: 0, original_order_total: 4500 });
    const last = await rows<{ n: number }>(
      t.database.db,
      sql`select max(display_id)::int as n from orders where not is_draft_order`,
    );
    expect(order.display_id).toBe(last[0].n);
    expect(await stockOf(t, variant.id)).toBe(stockBefore - 2);
    expect(await stockOf(t, extra.id)).toBe(4);
    expect(order.items.every((i: { variant_id: string | null }) => i.variant_id)).toBe(true);

    // Converting twice: the draft is gone, nothing else written.
    const after = await footprint(draft.id);
    const twice = await t.admin('POST', `/admin/draft-orders/${draft.id}/convert-to-order`, { mark_as_paid: true });
    expect(twice.statusCode).toBe(404);
    expect(await footprint(draft.id)).toEqual(after);
    expect((await t.admin('GET', `/admin/draft-orders/${draft.id}`)).statusCode).toBe(404);
  }, 120_000);

  it('numbers drafts on their own; refuses bad input, short stock and order actions on a draft, writing nothing', async () => {
    const a = await sdk.admin.draftOrder.create({ region_id: region.id, email: `a-${uniq()}@example.com` });
    const b = await sdk.admin.draftOrder.create({ region_id: region.id, email: `b-${uniq()}@example.com` });
    expect(b.draft_order.display_id).toBe((a.draft_order.display_id ?? 0) + 1);
    const placed = await placeOrder(t);
    expect(placed.order.display_id).not.toBe(0);

    const noOne = await t.admin('POST', '/admin/draft-orders', { region_id: region.id });
    expect(noOne.statusCode).toBe(400);
    const custom = await t.admin('POST', '/admin/draft-orders', {
      region_id: region.id,
      email: 'x@example.com',
      items: [{ title: 'No price', quantity: 1 }],
    });
    expect(custom.statusCode).toBe(400);
    const drafts = async () =>
      (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from orders where is_draft_order`))[0].n;
    const count = await drafts();
    const ghost = await t.admin('POST', '/admin/draft-orders', {
      region_id: region.id,
      email: 'x@example.com',
      items: [{ variant_id: 'variant_nope', quantity: 1 }],
    });
    expect(ghost.statusCode).toBe(404);
    expect(await drafts()).toBe(count);

    // An order's actions do not reach a draft, nor the draft's an order.
    const id = a.draft_order.id;
    expect((await t.admin('POST', `/admin/orders/${id}/cancel`, {})).statusCode).toBe(404);
    expect((await t.admin('POST', `/admin/draft-orders/${placed.order.id}/edit`, {})).statusCode).toBe(404);
    expect(
      (await t.admin('POST', `/admin/draft-orders/${id}/convert-to-order`, { mark_as_paid: true })).statusCode,
    ).toBe(400);

    // Short stock at conversion: refused, nothing reserved, still a draft.
    const { variant } = await makeProduct(t, { stock: 1 });
    const short = await sdk.admin.draftOrder.create({
      region_id: region.id,
      email: `c-${uniq()}@example.com`,
      items: [{ variant_id: variant.id, quantity: 2 }],
    });
    const before = await footprint(short.draft_order.id);
    const refused = await t.admin('POST', `/admin/draft-orders/${short.draft_order.id}/convert-to-order`, {
      mark_as_paid: true,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'insufficient_inventory' });
    expect(await footprint(short.draft_order.id)).toEqual(before);
    expect(await stockOf(t, variant.id)).toBe(1);

    // Converted without being marked paid: the order awaits payment, its whole total one unpaid
    // collection, which the desk then marks as paid.
    const { variant: sold } = await makeProduct(t, { stock: 3, prices: [{ currency_code: 'eur', amount: 1200 }] });
    const awaiting = await sdk.admin.draftOrder.create({
      region_id: region.id,
      email: `d-${uniq()}@example.com`,
      items: [{ variant_id: sold.id, quantity: 2 }],
    });
    const converted = await t.admin('POST', `/admin/draft-orders/${awaiting.draft_order.id}/convert-to-order`, {});
    expect(converted.statusCode).toBe(200);
    const owing = converted.json().order;
    expect(owing).toMatchObject({ status: 'pending', is_draft_order: false, total: 2400 });
    expect(owing.summary).toMatchObject({ paid_total: 0, pending_difference: 2400 });
    const collections = owing.payment_collections.filter((pc: { status: string }) => pc.status === 'not_paid');
    expect(collections).toMatchObject([{ amount: 2400, order_id: owing.id }]);
    expect(await stockOf(t, sold.id)).toBe(1);
    const marked = await t.admin('POST', `/admin/payment-collections/${collections[0].id}/mark-as-paid`, {
      order_id: owing.id,
    });
    expect(marked.statusCode).toBe(200);
    const paidOrder = (await t.admin('GET', `/admin/orders/${owing.id}`)).json().order;
    expect(paidOrder.summary).toMatchObject({ paid_total: 2400, pending_difference: 0 });

    const gone = await sdk.admin.draftOrder.delete(b.draft_order.id);
    expect(gone).toMatchObject({ id: b.draft_order.id, deleted: true });
    expect((await t.admin('GET', `/admin/draft-orders/${b.draft_order.id}`)).statusCode).toBe(404);
  }, 120_000);
});
