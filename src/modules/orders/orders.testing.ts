import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { makeCart, makeProduct, uniq, type ProductOpts } from '../checkout/checkout.testing.ts';

/** Factories for order desk tests (tests only): orders are placed through the real store checkout. */

export interface PlaceOpts {
  email?: string;
  /** Quantity per line; one product per line. Default: one line of 3. */
  lines?: number[];
  product?: ProductOpts;
  /** Store request headers, e.g. a customer's bearer. */
  headers?: Record<string, string>;
}

/** Creates products, a cart with those lines, completes it; returns the order and the variants. */
export async function placeOrder(t: TestApp, opts: PlaceOpts = {}) {
  const variants: { id: string }[] = [];
  for (let i = 0; i < (opts.lines ?? [3]).length; i++) variants.push((await makeProduct(t, opts.product)).variant);
  const items = (opts.lines ?? [3]).map((quantity, i) => ({ variant_id: variants[i].id, quantity }));
  const cart = await makeCart(t, { email: opts.email ?? `buyer-${uniq()}@example.com`, items }, opts.headers);
  const done = await t.store('POST', `/store/carts/${cart.id}/complete`, undefined, { headers: opts.headers });
  expect(done.statusCode, done.body).toBe(200);
  const order = done.json().order as {
    id: string;
    display_id: number;
    total: number;
    items: { id: string; variant_id: string; quantity: number }[];
  };
  return { order, variants, paymentId: done.json().order.payment_collections[0].payments[0].id as string };
}

/** An order of one line of 3 × 1500 (as `placeOrder` makes it), captured and fulfilled in full; `line` is that line. */
export async function placeFulfilledOrder(t: TestApp, opts: PlaceOpts = {}) {
  const placed = await placeOrder(t, opts);
  await adminOk(t, `/admin/orders/${placed.order.id}/capture`);
  const line = placed.order.items[0];
  await adminOk(t, `/admin/orders/${placed.order.id}/fulfillments`, { items: [{ item_id: line.id, quantity: 3 }] });
  return { ...placed, line };
}

/** `POST` as the admin, expecting 200, returning the body. */
export async function adminOk(t: TestApp, url: string, body?: unknown) {
  const res = await t.admin('POST', url, body as never);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Outbox event names about this order, oldest first. */
export async function orderEventNames(t: TestApp, orderId: string): Promise<string[]> {
  const found = await rows<{ name: string }>(
    t.database.db,
    sql`select name from outbox where payload->>'id' = ${orderId} order by id`,
  );
  return found.map((e) => e.name);
}

/** The order as the admin sees it. */
export async function adminOrder(t: TestApp, id: string) {
  const res = await t.admin('GET', `/admin/orders/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().order;
}
