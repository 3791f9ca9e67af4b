import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/database.ts';
import { type Ctx, inTx } from '../context.ts';
import { systemClock } from '../clock.ts';
import { preparedName } from './auto-prepare.ts';
import { type Database, rows } from './database.ts';

describe('which statements go as named prepared statements', () => {
  it('names parameterised reads and writes, never a result of `*`, DDL or several statements', () => {
    for (const text of [
      'select "id", "title" from "products" where "products"."id" = $1',
      'with moved as (update stock set n = n - $1 returning id) select count(*) from moved',
      'insert into orders (id, total) values ($1, $2) returning id, total',
      "update carts set email = $1 where id = $2 and note <> '*'",
      'delete from cart_line_items where cart_id = $1',
    ])
      expect(preparedName(text), text).toMatch(/^e_[0-9a-f]{20}$/);
    for (const text of [
      'select * from products where id = $1',
      'select p.*, v.id from products p join variants v on v.product_id = p.id where p.id = $1',
      'select "p".* from products "p" where id = $1',
      'insert into t (a) values ($1) returning *',
      'create index i on t (a)',
      'select 1 where $1::int = 1; select 2',
    ])
      expect(preparedName(text), text).toBeUndefined();
  });
});

const base = process.env.DATABASE_URL;

describe.skipIf(!base)('on PostgreSQL, a statement with parameters is prepared once per connection', () => {
  let database: Database;
  let ctx: Ctx;
  beforeAll(async () => {
    database = await testDatabase();
    ctx = { db: database.db, clock: systemClock, log: console as never };
  });

  it('is in the session’s prepared statements after it ran, and answers the same rows again', async () => {
    const marker = `auto-prepare-${Date.now()}`;
    const read = (n: number) => sql`select ${marker}::text as marker, ${n}::int + 1 as next`;
    const star = sql`select * from (select ${marker}::text as marker) s`;
    const prepared = await inTx(ctx, async (tctx) => {
      for (let n = 0; n < 7; n++) expect(await rows(tctx.tx, read(n))).toEqual([{ marker, next: n + 1 }]);
      await rows(tctx.tx, star);
      return rows<{ statement: string }>(
        tctx.tx,
        sql.raw("select statement from pg_prepared_statements where statement like '%::text as marker%'"),
      );
    });
    expect(prepared.map((p) => p.statement)).toEqual([expect.stringContaining('::int + 1 as next')]);
  });
});
