import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { SEARCH_COUNTED_UP_TO } from '../../platform/db/search-breadth.ts';
import { listCustomerRows } from './queries.ts';

/**
 * `/admin/customers?q=` when most customers match (search-breadth.ts): the page is the same as an
 * exact search's, and the count an estimate said as such (`count_estimated`) until the last page,
 * which counts exactly; a rare `q` is counted exactly. 6,000 customers written directly (the API
 * would take minutes), then analyzed as the product's statistics pass would.
 */
let t: TestApp;
const BROAD = 6_000;

beforeAll(async () => {
  t = await startTestApp();
  await t.database.db.execute(sql`insert into customers (id, email, first_name, last_name, created_at, updated_at)
    select 'cus_breadth' || lpad(i::text, 6, '0'), 'shopper' || i || '@wide-breadth.example', 'First' || i, 'Last',
      now(), now()
    from generate_series(1, ${BROAD}) i`);
  await t.database.db.execute(sql`insert into customers (id, email, first_name, last_name, created_at, updated_at)
    values ('cus_breadthrare1', 'rare-one@narrow-breadth.example', 'R', 'One', now(), now()),
           ('cus_breadthrare2', 'rare-two@narrow-breadth.example', 'R', 'Two', now(), now())`);
  await t.database.db.execute(sql`analyze customers`);
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await t.admin('GET', `/admin/customers?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { customers: { id: string }[]; count: number; count_estimated?: boolean };
};

/** The ids an exact search finds, in the list's order. */
const exactIds = async (like: string, limit: number, offset: number) =>
  (
    await rows<{ id: string }>(
      t.database.db,
      sql`select id from customers where deleted_at is null and (email ilike ${like} or first_name ilike ${like} or last_name ilike ${like})
        order by id limit ${limit} offset ${offset}`,
    )
  ).map((r) => r.id);

describe('admin customers: a q most customers match', () => {
  it('answers the exact page, and an estimated count said to be one', async () => {
    const body = await list('q=wide-breadth&limit=50');
    expect(body.customers.map((c) => c.id)).toEqual(await exactIds('%wide-breadth%', 50, 0));
    expect(body.count_estimated).toBe(true);
    expect(body.count).toBeGreaterThan(SEARCH_COUNTED_UP_TO);
    expect(body.count).toBeLessThan(2 * BROAD);

    const middle = await list('q=wide-breadth&limit=50&offset=3000');
    expect(middle.customers.map((c) => c.id)).toEqual(await exactIds('%wide-breadth%', 50, 3000));
  });

  it('counts exactly on the last page, and for a rare q', async () => {
    const last = await list(`q=wide-breadth&limit=50&offset=${BROAD - 20}`);
    expect(last.customers).toHaveLength(20);
    expect(last.count).toBe(BROAD);
    expect(last.count_estimated).toBeUndefined();

    const rare = await list('q=narrow-breadth&limit=1');
    expect(rare.customers.map((c) => c.id)).toEqual(['cus_breadthrare1']);
    expect(rare.count).toBe(2);
    expect(rare.count_estimated).toBeUndefined();
  });

  it('looks for a broad page among the first customers, and reads on when they hold too few matches', async () => {
    const page = { limit: 50, offset: 100 };
    const exact = await exactIds('%wide-breadth%', 50, 100);
    const ids = (found: { id: string }[]) => found.map((c) => c.id);
    // Enough rows in the prefix for the page, and far too few: the same page either way.
    expect(ids(await listCustomerRows(t.database.db, { q: 'wide-breadth' }, page, 1_000))).toEqual(exact);
    expect(ids(await listCustomerRows(t.database.db, { q: 'wide-breadth' }, page, 120))).toEqual(exact);
  });
});
