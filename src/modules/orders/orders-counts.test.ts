import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { FakeClock } from '../../platform/clock.ts';
import { rows } from '../../platform/db/database.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { adminOk, placeOrder } from './orders.testing.ts';

/**
 * The list's `count` and the dashboard's sales come from counters a trigger keeps (count-tables.ts),
 * not from the rows: after every kind of order write, they must equal what the rows say.
 */
let t: TestApp;
let region: { id: string };
const placed: { id: string; created_at: string }[] = [];

beforeAll(async () => {
  t = await startTestApp({ clock: new FakeClock('2031-03-04T10:07:00.000Z') });
  region = await makeRegion(t);
  // Orders on both sides of quarter-hour edges: 10:07, 10:14:59.999, 10:15, 10:31, 11:46.
  for (const step of [0, 479_999, 1, 960_000, 4_500_000]) {
    t.clock.advance(step);
    const { order } = await placeOrder(t, { lines: [1] });
    placed.push({ id: order.id, created_at: t.clock.now().toISOString() });
  }
  await adminOk(t, `/admin/orders/${placed[1].id}/capture`);
  const shipped = (await t.admin('GET', `/admin/orders/${placed[2].id}`)).json().order;
  await adminOk(t, `/admin/orders/${placed[2].id}/fulfillments`, {
    items: [{ item_id: shipped.items[0].id, quantity: 1 }],
  });
  await adminOk(t, `/admin/orders/${placed[3].id}/cancel`);
});
afterAll(() => t.close());

const countOf = async (query: string) => {
  const res = await t.admin('GET', `/admin/orders?limit=1&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().count as number;
};

const truth = async (where: ReturnType<typeof sql>) =>
  (
    await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from orders where not is_draft_order and ${where}`,
    )
  )[0].n;

async function expectCountsExact() {
  const channel = (await t.admin('GET', '/admin/sales-channels')).json().sales_channels[0].id;
  const cases: [string, ReturnType<typeof sql>][] = [
    ['', sql`true`],
    ['status=pending', sql`status = 'pending'`],
    ['status=canceled', sql`status = 'canceled'`],
    ['payment_status=captured', sql`payment_status = 'captured'`],
    ['payment_status[]=authorized&payment_status[]=canceled', sql`payment_status in ('authorized', 'canceled')`],
    ['fulfillment_status=fulfilled', sql`fulfillment_status = 'fulfilled'`],
    [`region_id=${region.id}`, sql`region_id = ${region.id}`],
    [`sales_channel_id=${channel}&status=pending`, sql`sales_channel_id = ${channel} and status = 'pending'`],
  ];
  for (const [query, where] of cases) expect(await countOf(query), query).toBe(await truth(where));
  // created_at bounds on, just off and between quarter-hour edges.
  const bounds = [
    '2031-03-04T10:00:00.000Z',
    '2031-03-04T10:07:00.000Z',
    '2031-03-04T10:14:59.999Z',
    '2031-03-04T10:15:00.000Z',
    '2031-03-04T10:20:00.000Z',
    '2031-03-04T10:31:00.000Z',
    '2031-03-04T11:46:00.000Z',
    '2031-03-04T12:00:00.000Z',
  ];
  for (const op of ['gte', 'gt', 'lte', 'lt'] as const)
    for (const at of bounds) {
      const where = {
        gte: sql`created_at >= ${at}::timestamptz`,
        gt: sql`created_at > ${at}::timestamptz`,
        lte: sql`created_at <= ${at}::timestamptz`,
        lt: sql`created_at < ${at}::timestamptz`,
      }[op];
      expect(await countOf(`created_at[${op}]=${at}`), `${op} ${at}`).toBe(await truth(where));
    }
  for (const [from, to] of [
    [bounds[1], bounds[5]],
    [bounds[0], bounds[3]],
    [bounds[2], bounds[3]],
    [bounds[3], bounds[7]],
    [bounds[5], bounds[6]],
  ])
    expect(await countOf(`created_at[gte]=${from}&created_at[lt]=${to}`), `${from}..${to}`).toBe(
      await truth(sql`created_at >= ${from}::timestamptz and created_at < ${to}::timestamptz`),
    );
}

/** The dashboard's days against the orders themselves. */
async function expectSalesExact(offset: number) {
  const res = await t.admin('GET', `/admin/dashboard?utc_offset_minutes=${offset}`);
  expect(res.statusCode, res.body).toBe(200);
  const shift = sql`make_interval(mins => ${offset}::int)`;
  // The service's window: 30 local days, today included.
  const day = 86_400_000;
  const now = t.clock.now().getTime();
  const since = new Date(Math.floor((now + offset * 60_000) / day) * day - offset * 60_000 - 29 * day);
  const expected = await rows(
    t.database.db,
    sql`select to_char(date_trunc('day', created_at + ${shift}), 'YYYY-MM-DD') as day, currency_code,
               count(*)::int as orders, coalesce(sum(total), 0)::float8 as revenue
          from orders where created_at >= ${since} and status <> 'canceled' group by 1, 2 order by 1, 2`,
  );
  expect(res.json().sales, `offset ${offset}`).toEqual(expected);
}

describe('order counters', () => {
  it('the list count equals the rows after placing, capturing, fulfilling and canceling', async () => {
    await expectCountsExact();
  });

  it('the dashboard equals the orders, at whole and odd offsets', async () => {
    const sales = (await t.admin('GET', '/admin/dashboard?utc_offset_minutes=-630')).json().sales;
    // Four sold (one canceled of five); at UTC-10:30 the first three fall on the day before.
    expect(sales.map((s: { orders: number }) => s.orders)).toEqual([3, 1]);
    for (const offset of [0, 60, -630, 345, 7, -607]) await expectSalesExact(offset);
  });

  it('writes that bypass the services (moves in time and currency, total changes, deletes) keep them exact', async () => {
    const db = t.database.db;
    await db.execute(sql`update orders set created_at = created_at - interval '7 minutes' where id = ${placed[0].id}`);
    await db.execute(sql`update orders set total = total + 250 where id = ${placed[1].id}`);
    await db.execute(sql`update orders set currency_code = 'usd' where id = ${placed[2].id}`);
    await db.execute(sql`update orders set status = 'pending' where id = ${placed[3].id}`);
    await db.execute(sql`update orders set is_draft_order = true where id = ${placed[4].id}`);
    await expectCountsExact();
    for (const offset of [0, 60]) await expectSalesExact(offset);
    await db.execute(sql`delete from orders where id = ${placed[1].id}`);
    await expectCountsExact();
    await expectSalesExact(0);
  });
});
