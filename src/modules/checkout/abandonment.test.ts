import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { abandonIdleCarts, cartAbandonmentJob } from './abandonment.ts';
import { eventsFor, makeCart, makeProduct, makeRegion } from './checkout.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

const MIN = 60_000;
const abandonedEvents = async (id: string) => (await eventsFor(t, id)).filter((e) => e.name === 'cart.abandoned');
const abandonedAt = async (id: string) => {
  const [row] = await rows<{ at: Date | null }>(
    t.database.db,
    sql`select abandoned_at as at from carts where id = ${id}`,
  );
  return row.at && new Date(row.at).toISOString();
};

describe('cart abandonment job', () => {
  it('is data: a name, an interval and a run function', () => {
    expect(cartAbandonmentJob).toMatchObject({ name: 'cart-abandonment', everyMs: 60_000, run: abandonIdleCarts });
  });

  it('leaves a cart idle for 59 minutes, abandons it at 61, emits cart.abandoned once', async () => {
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, { email: 'idle@example.com', items: [{ variant_id: variant.id, quantity: 1 }] });
    t.clock.advance(59 * MIN);
    await abandonIdleCarts(t.ctx);
    expect(await abandonedAt(cart.id)).toBeNull();
    t.clock.advance(2 * MIN);
    expect(await abandonIdleCarts(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await abandonedAt(cart.id)).toBe(t.clock.now().toISOString());
    const events = await abandonedEvents(cart.id);
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      id: cart.id,
      email: 'idle@example.com',
      total: 1500,
      abandoned_at: t.clock.now().toISOString(),
    });
    expect(events[0].payload.items).toHaveLength(1);

    t.clock.advance(120 * MIN);
    await abandonIdleCarts(t.ctx);
    expect(await abandonedEvents(cart.id)).toHaveLength(1);
  });

  it('counts idle time from the last change of the cart', async () => {
    const cart = await makeCart(t, {});
    t.clock.advance(40 * MIN);
    expect((await t.store('POST', `/store/carts/${cart.id}`, { metadata: { seen: true } })).statusCode).toBe(200);
    t.clock.advance(40 * MIN); // 80 minutes old, 40 minutes idle
    await abandonIdleCarts(t.ctx);
    expect(await abandonedAt(cart.id)).toBeNull();
    t.clock.advance(21 * MIN);
    await abandonIdleCarts(t.ctx);
    expect(await abandonedAt(cart.id)).not.toBeNull();
  });

  it('never abandons a completed cart', async () => {
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, { email: 'done@example.com', items: [{ variant_id: variant.id, quantity: 1 }] });
    expect((await t.store('POST', `/store/carts/${cart.id}/complete`)).statusCode).toBe(200);
    t.clock.advance(5 * 60 * MIN);
    await abandonIdleCarts(t.ctx);
    expect(await abandonedAt(cart.id)).toBeNull();
    expect(await abandonedEvents(cart.id)).toEqual([]);
  });

  it('two runs at once (two instances) emit one event per cart', async () => {
    const carts = await Promise.all(Array.from({ length: 30 }, (_, i) => makeCart(t, { email: `p${i}@example.com` })));
    t.clock.advance(61 * MIN);
    const [a, b] = await Promise.all([abandonIdleCarts(t.ctx), abandonIdleCarts(t.ctx)]);
    expect(a + b).toBeGreaterThanOrEqual(30);
    for (const cart of carts) expect(await abandonedEvents(cart.id)).toHaveLength(1);
    const [dupes] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from (select payload->>'id' from outbox where name = 'cart.abandoned' group by 1 having count(*) > 1) d`,
    );
    expect(dupes.n).toBe(0);
  });
});
