import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { makeProduct, stockOf } from '../checkout/checkout.testing.ts';
import { adminOrder } from '../orders/orders.testing.ts';

/**
 * A model-based property test of the money and stock after the sale, played against a shop whose
 * orders are paid through one payment provider: random sequences of captures, fulfilments, returns
 * (partial, received partly, sellable or damaged), exchanges (and undoing them), claims, edits,
 * refunds (and refunds beyond what is left), payments of the difference and cancellations. After
 * every step, once the provider has reported whatever it has to report (`afterStep`): the
 * provider's own ledger (what it says it captured and refunded for the order) and the shop's
 * (captures and refunds recorded for the order's payments) both equal `paid_total` and
 * `refunded_total`, nothing is refunded beyond what was captured, `current_order_total` and
 * `pending_difference` are what the model says, stock is the initial stock less what went out plus
 * what came back sellable, and every order version written earlier is unchanged.
 */

export const A_PRICE = 1500;
export const B_PRICE = 2500;

/** The shop under test and the payment provider its orders are paid through. */
export interface AfterSaleShop {
  t: TestApp;
  /** A fresh order of 3 × a new product priced A_PRICE, authorized (not captured). */
  placeOrder(): Promise<{ orderId: string; lineA: string; variantA: string }>;
  /** What the provider itself recorded for the order's payments. */
  providerLedger(orderId: string): Promise<{ captured: number; refunded: number }>;
  /** The order's unpaid collection paid and captured (`how` picks one of the provider's ways). */
  payDifference(orderId: string, collection: { id: string; amount: number }, how: number): Promise<void>;
  /** Whatever the provider has to report (its webhooks) is delivered before the checks. */
  afterStep(): Promise<void>;
}

export interface Real {
  shop: AfterSaleShop;
  orderId: string;
  lineA: string;
  variantA: string;
  variantB: string;
  versions: Map<number, string>;
}

export interface Model {
  canceled: boolean;
  captured: boolean;
  paid: number;
  refunded: number;
  current: number;
  qtyA: number;
  fulfilledA: number;
  askedBack: number;
  claimed: number;
  /** Units of A and B out of stock because of this order (held or shipped), less what came back. */
  outA: number;
  outB: number;
  /** Units of B on lines that are never fulfilled here (released on cancel). */
  heldB: number;
  /** Units of A held by lines other than the original (claim replacements, released on cancel). */
  heldExtraA: number;
  returns: { id: string; left: number; credit: number }[];
  /** Confirmed exchanges not undone, with their return's place in `returns`. */
  exchanges: { id: string; ret: number }[];
  stockA0: number;
  stockB0: number;
}

async function ok(r: Real, method: string, url: string, body?: unknown) {
  const res = await r.shop.t.admin(method, url, body as never);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

/** The shop's ledger: captures and refunds recorded for the order's payments. */
async function shopLedger(t: TestApp, orderId: string) {
  const [row] = await rows<{ captured: number; refunded: number; over: number }>(
    t.database.db,
    sql`select
      coalesce((select sum(c.amount) from payment_captures c join payments p on p.id = c.payment_id where p.order_id = ${orderId}), 0)::int as captured,
      coalesce((select sum(r.amount) from refunds r where r.order_id = ${orderId}), 0)::int as refunded,
      (select count(*) from payments p where p.order_id = ${orderId}
         and (p.refunded_amount > p.captured_amount or p.captured_amount > p.amount))::int as over`,
  );
  return row;
}

async function checkInvariants(m: Model, r: Real) {
  const { t } = r.shop;
  await r.shop.afterStep();
  const order = await adminOrder(t, r.orderId);
  const ledger = await shopLedger(t, r.orderId);
  const provider = await r.shop.providerLedger(r.orderId);
  expect(ledger.over).toBe(0);
  expect(order.summary.paid_total).toBe(provider.captured);
  expect(order.summary.refunded_total).toBe(provider.refunded);
  expect(order.summary.paid_total).toBe(ledger.captured);
  expect(order.summary.refunded_total).toBe(ledger.refunded);
  expect(ledger.captured).toBe(m.paid);
  expect(ledger.refunded).toBe(m.refunded);
  expect(m.refunded).toBeLessThanOrEqual(m.paid);
  expect(order.summary.current_order_total).toBe(m.current);
  expect(order.summary.pending_difference).toBe(m.canceled ? 0 : m.current - (m.paid - m.refunded));
  expect(await stockOf(t, r.variantA)).toBe(m.stockA0 - m.outA);
  expect(await stockOf(t, r.variantB)).toBe(m.stockB0 - m.outB);
  const versions = await rows<{ version: number; snapshot: unknown }>(
    t.database.db,
    sql`select version, snapshot from order_versions where order_id = ${r.orderId}`,
  );
  for (const v of versions) {
    const json = JSON.stringify(v.snapshot);
    const seen = r.versions.get(v.version);
    if (seen === undefined) r.versions.set(v.version, json);
    else expect(json, `version ${v.version} changed`).toBe(seen);
  }
  expect(versions.length).toBe(r.versions.size);
}

export type Cmd = fc.AsyncCommand<Model, Real>;
const live = (m: Model) => !m.canceled;

class Capture implements Cmd {
  check = (m: Model) => live(m) && !m.captured;
  async run(m: Model, r: Real) {
    await ok(r, 'POST', `/admin/orders/${r.orderId}/capture`);
    m.captured = true;
    m.paid += 3 * A_PRICE;
    await checkInvariants(m, r);
  }
  toString = () => 'capture';
}

class Fulfil implements Cmd {
  check = (m: Model) => live(m) && m.fulfilledA < m.qtyA;
  async run(m: Model, r: Real) {
    await ok(r, 'POST', `/admin/orders/${r.orderId}/fulfillments`, { items: [{ item_id: r.lineA, quantity: 1 }] });
    m.fulfilledA += 1;
    await checkInvariants(m, r);
  }
  toString = () => 'fulfil 1';
}

class Return implements Cmd {
  constructor(readonly quantity: number) {}
  check = (m: Model) => live(m) && m.fulfilledA - m.askedBack >= 1;
  async run(m: Model, r: Real) {
    const quantity = Math.min(this.quantity, m.fulfilledA - m.askedBack);
    const { return: ret } = await ok(r, 'POST', '/admin/returns', { order_id: r.orderId });
    await ok(r, 'POST', `/admin/returns/${ret.id}/request-items`, { items: [{ id: r.lineA, quantity }] });
    await ok(r, 'POST', `/admin/returns/${ret.id}/request`, {});
    m.askedBack += quantity;
    m.returns.push({ id: ret.id, left: quantity, credit: A_PRICE });
    await checkInvariants(m, r);
  }
  toString = () => `return ${this.quantity}`;
}

class Receive implements Cmd {
  constructor(
    readonly quantity: number,
    readonly damaged: boolean,
    readonly pick: number,
  ) {}
  check = (m: Model) => live(m) && m.returns.some((x) => x.left > 0);
  async run(m: Model, r: Real) {
    const open = m.returns.filter((x) => x.left > 0);
    const ret = open[this.pick % open.length];
    const quantity = Math.min(this.quantity, ret.left);
    await ok(r, 'POST', `/admin/returns/${ret.id}/receive`, {});
    await ok(r, 'POST', `/admin/returns/${ret.id}/${this.damaged ? 'dismiss-items' : 'receive-items'}`, {
      items: [{ id: r.lineA, quantity }],
    });
    await ok(r, 'POST', `/admin/returns/${ret.id}/receive/confirm`, {});
    // Received twice: refused, nothing moves.
    const again = await r.shop.t.admin('POST', `/admin/returns/${ret.id}/receive/confirm`, {});
    expect(again.statusCode).toBe(400);
    ret.left -= quantity;
    m.current -= ret.credit * quantity;
    if (!this.damaged) m.outA -= quantity;
    await checkInvariants(m, r);
  }
  toString = () => `receive ${this.quantity}${this.damaged ? ' damaged' : ''} of return #${this.pick}`;
}

class Exchange implements Cmd {
  check = (m: Model) => live(m) && m.fulfilledA - m.askedBack >= 1;
  async run(m: Model, r: Real) {
    const { exchange } = await ok(r, 'POST', '/admin/exchanges', { order_id: r.orderId });
    await ok(r, 'POST', `/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: r.lineA, quantity: 1 }] });
    await ok(r, 'POST', `/admin/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: r.variantB, quantity: 1 }],
    });
    const done = await ok(r, 'POST', `/admin/exchanges/${exchange.id}/request`, {});
    expect(done.exchange.difference_due).toBe(B_PRICE - A_PRICE);
    m.askedBack += 1;
    m.current += B_PRICE - A_PRICE;
    m.outB += 1;
    m.heldB += 1;
    m.returns.push({ id: done.exchange.return_id, left: 1, credit: 0 });
    m.exchanges.push({ id: exchange.id, ret: m.returns.length - 1 });
    await checkInvariants(m, r);
  }
  toString = () => 'exchange 1 A for 1 B';
}

/** Undoes the latest exchange whose return has not arrived: its money, stock and return go back. */
class UndoExchange implements Cmd {
  check = (m: Model) => live(m) && m.exchanges.some((x) => m.returns[x.ret].left === 1);
  async run(m: Model, r: Real) {
    const ex = [...m.exchanges].reverse().find((x) => m.returns[x.ret].left === 1)!;
    const res = await ok(r, 'POST', `/admin/exchanges/${ex.id}/cancel`, {});
    expect(res.exchange.status).toBe('canceled');
    const ret = m.returns[ex.ret];
    const refused = await r.shop.t.admin('POST', `/admin/returns/${ret.id}/receive`, {});
    expect(refused.statusCode).toBe(400);
    m.exchanges = m.exchanges.filter((x) => x !== ex);
    ret.left = 0;
    m.askedBack -= 1;
    m.current -= B_PRICE - A_PRICE;
    m.outB -= 1;
    m.heldB -= 1;
    await checkInvariants(m, r);
  }
  toString = () => 'undo the last exchange';
}

class Claim implements Cmd {
  constructor(readonly refund: boolean) {}
  check = (m: Model) => live(m) && m.fulfilledA - m.claimed >= 1;
  async run(m: Model, r: Real) {
    const { claim } = await ok(r, 'POST', '/admin/claims', {
      order_id: r.orderId,
      type: this.refund ? 'refund' : 'replace',
    });
    await ok(r, 'POST', `/admin/claims/${claim.id}/claim-items`, {
      items: [{ id: r.lineA, quantity: 1, reason: 'production_failure' }],
    });
    if (!this.refund)
      await ok(r, 'POST', `/admin/claims/${claim.id}/outbound/items`, {
        items: [{ variant_id: r.variantA, quantity: 1 }],
      });
    await ok(r, 'POST', `/admin/claims/${claim.id}/request`, {});
    m.claimed += 1;
    if (this.refund) m.current -= A_PRICE;
    else {
      m.outA += 1;
      m.heldExtraA += 1;
    }
    await checkInvariants(m, r);
  }
  toString = () => `claim ${this.refund ? 'refund' : 'replace'}`;
}

class Edit implements Cmd {
  constructor(readonly lower: boolean) {}
  check = (m: Model) => live(m) && (!this.lower || m.qtyA > m.fulfilledA);
  async run(m: Model, r: Real) {
    await ok(r, 'POST', '/admin/order-edits', { order_id: r.orderId });
    if (this.lower)
      await ok(r, 'POST', `/admin/order-edits/${r.orderId}/items/item/${r.lineA}`, { quantity: m.qtyA - 1 });
    else
      await ok(r, 'POST', `/admin/order-edits/${r.orderId}/items`, {
        items: [{ variant_id: r.variantB, quantity: 1 }],
      });
    await ok(r, 'POST', `/admin/order-edits/${r.orderId}/request`, {});
    await ok(r, 'POST', `/admin/order-edits/${r.orderId}/confirm`, {});
    if (this.lower) {
      m.qtyA -= 1;
      m.current -= A_PRICE;
      m.outA -= 1;
    } else {
      m.current += B_PRICE;
      m.outB += 1;
      m.heldB += 1;
    }
    await checkInvariants(m, r);
  }
  toString = () => (this.lower ? 'edit: one A fewer' : 'edit: one B more');
}

class Refund implements Cmd {
  constructor(readonly share: number) {}
  check = (m: Model) => live(m) && m.paid - m.refunded > 0;
  async run(m: Model, r: Real) {
    const left = m.paid - m.refunded;
    const over = await r.shop.t.admin('POST', `/admin/orders/${r.orderId}/refunds`, { amount: left + 1 });
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe('refund_exceeds_captured');
    const amount = Math.max(1, Math.floor(left * this.share));
    await ok(r, 'POST', `/admin/orders/${r.orderId}/refunds`, { amount });
    m.refunded += amount;
    await checkInvariants(m, r);
  }
  toString = () => `refund ${Math.round(this.share * 100)}% of what is left`;
}

class PayDifference implements Cmd {
  constructor(readonly how: number) {}
  check = (m: Model) => live(m);
  async run(m: Model, r: Real) {
    const order = await adminOrder(r.shop.t, r.orderId);
    const unpaid = order.payment_collections.find((pc: { status: string }) => pc.status === 'not_paid');
    if (!unpaid) return;
    expect(unpaid.amount).toBeGreaterThan(0);
    await r.shop.payDifference(r.orderId, unpaid, this.how);
    m.paid += unpaid.amount;
    await checkInvariants(m, r);
  }
  toString = () => `pay the difference (way ${this.how})`;
}

class Cancel implements Cmd {
  check = (m: Model) => live(m) && m.fulfilledA === 0;
  async run(m: Model, r: Real) {
    await ok(r, 'POST', `/admin/orders/${r.orderId}/cancel`);
    m.canceled = true;
    m.refunded = m.paid;
    m.outA -= m.qtyA + m.heldExtraA;
    m.outB -= m.heldB;
    await checkInvariants(m, r);
  }
  toString = () => 'cancel';
}

const commands = [
  fc.constant(new Capture()),
  fc.constant(new Fulfil()),
  fc.integer({ min: 1, max: 2 }).map((n) => new Return(n)),
  fc.tuple(fc.integer({ min: 1, max: 2 }), fc.boolean(), fc.nat({ max: 3 })).map(([n, d, i]) => new Receive(n, d, i)),
  fc.constant(new Exchange()),
  fc.constant(new UndoExchange()),
  fc.boolean().map((b) => new Claim(b)),
  fc.boolean().map((b) => new Edit(b)),
  fc.double({ min: 0.1, max: 1, noNaN: true }).map((s) => new Refund(s)),
  fc.nat({ max: 1 }).map((n) => new PayDifference(n)),
  fc.constant(new Cancel()),
];

const start = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ captured: false, fulfilled: 0 }) },
  { weight: 4, arbitrary: fc.record({ captured: fc.constant(true), fulfilled: fc.integer({ min: 1, max: 3 }) }) },
);

/** Plays `runs` random sequences of at most `maxCommands` steps, each on a fresh order. */
export async function playAfterSale(
  shop: AfterSaleShop,
  opts: { runs: number; seed: number; maxCommands: number },
): Promise<void> {
  const variantB = (await makeProduct(shop.t, { prices: [{ currency_code: 'eur', amount: B_PRICE }], stock: 1000 }))
    .variant.id;
  await fc.assert(
    fc.asyncProperty(start, fc.commands(commands, { maxCommands: opts.maxCommands }), async (begin, cmds) => {
      const placed = await shop.placeOrder();
      const real: Real = { shop, ...placed, variantB, versions: new Map() };
      // Most runs start captured and partly fulfilled, so the after-sale flows are open at once.
      if (begin.captured) await ok(real, 'POST', `/admin/orders/${placed.orderId}/capture`);
      if (begin.fulfilled)
        await ok(real, 'POST', `/admin/orders/${placed.orderId}/fulfillments`, {
          items: [{ item_id: placed.lineA, quantity: begin.fulfilled }],
        });
      const model: Model = {
        canceled: false,
        captured: begin.captured,
        paid: begin.captured ? 3 * A_PRICE : 0,
        refunded: 0,
        current: 3 * A_PRICE,
        qtyA: 3,
        fulfilledA: begin.fulfilled,
        askedBack: 0,
        claimed: 0,
        outA: 0,
        outB: 0,
        heldB: 0,
        heldExtraA: 0,
        returns: [],
        exchanges: [],
        stockA0: await stockOf(shop.t, placed.variantA),
        stockB0: await stockOf(shop.t, variantB),
      };
      await checkInvariants(model, real);
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    }),
    { numRuns: opts.runs, seed: opts.seed, endOnFailure: true },
  );
}
