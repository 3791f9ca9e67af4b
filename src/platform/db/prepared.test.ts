import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetDatabase, testDatabase } from '../../../test/database.ts';
import { deferred } from '../../../test/processes.ts';
import { inTx } from '../context.ts';
import { systemClock } from '../clock.ts';
import type { Ctx } from '../context.ts';
import { rows, type Database } from './database.ts';
import { isUniqueViolation } from './pg-errors.ts';
import { preparedRows, textArray } from './prepared.ts';

let database: Database;
let ctx: Ctx;
beforeAll(async () => {
  database = await testDatabase();
  ctx = { db: database.db, clock: systemClock, log: console as never };
});
beforeEach(() => resetDatabase(database));

const insert = (key: string, value: string, at = '2026-01-02T03:04:05.678Z') =>
  sql`insert into settings (key, value, updated_at, updated_by) values (${key}, ${value}, ${at}::timestamptz, null)
      returning key, value, updated_at, updated_by, ${JSON.stringify({ key, n: [1, 2] })}::jsonb as doc`;
const byKeys = (keys: string[]) =>
  sql`select key, value, updated_at from settings where key = any(${sql.param(keys)}::text[]) order by key`;

describe('preparedRows', () => {
  it('answers the rows a plain query answers, again and again with other values (past the generic-plan switch)', async () => {
    const [row] = await preparedRows<Record<string, unknown>>(database.db, insert('a', 'one'));
    expect(row).toEqual({
      key: 'a',
      value: 'one',
      updated_at: (
        await rows<{ t: string }>(database.db, sql`select ${'2026-01-02T03:04:05.678Z'}::timestamptz as t`)
      )[0].t,
      updated_by: null,
      doc: { key: 'a', n: [1, 2] },
    });
    for (let i = 0; i < 8; i++) await preparedRows(database.db, insert(`k${i}`, `v${i}`));
    for (let i = 0; i < 8; i++) {
      const keys = [`k${i}`, `k${(i + 3) % 8}`, 'missing'];
      expect(await preparedRows(database.db, byKeys(keys))).toEqual(await rows(database.db, byKeys(keys)));
    }
  });

  it('is a prepared statement of the session, inside a transaction as outside', async () => {
    const preparedHere = (tx: Parameters<typeof rows>[0]) =>
      rows<{ name: string }>(
        tx,
        sql`select name from pg_prepared_statements where statement like '%from settings where key = any%'`,
      );
    await inTx(ctx, async (tctx) => {
      await preparedRows(tctx.tx, byKeys(['a']));
      expect(await preparedHere(tctx.tx)).toEqual([{ name: expect.stringMatching(/^e_[0-9a-f]{20}$/) }]);
    });
  });

  it('a list of a few ids keeps its generic plan: planned once, not at every run', async () => {
    await preparedRows(database.db, insert('g1', 'x'));
    const plans = await inTx(ctx, async (tctx) => {
      for (let i = 0; i < 12; i++)
        expect(
          await preparedRows(
            tctx.tx,
            sql`select key from settings where key = any(${textArray(['g1', `nope${i}`])}) order by key`,
          ),
        ).toEqual([{ key: 'g1' }]);
      return rows<{ generic_plans: number; custom_plans: number }>(
        tctx.tx,
        sql`select generic_plans::int, custom_plans::int from pg_prepared_statements where statement like '%key = any(array[%'`,
      );
    });
    // PostgreSQL tries five custom plans first, then keeps the generic one when it is no dearer.
    expect(plans).toEqual([{ generic_plans: 7, custom_plans: 5 }]);
    expect(await preparedRows(database.db, sql`select key from settings where key = any(${textArray([])})`)).toEqual(
      [],
    );
  });

  it('runs inside the caller’s transaction: sees its writes, and a rollback takes them back', async () => {
    await expect(
      inTx(ctx, async (tctx) => {
        await preparedRows(tctx.tx, insert('in-tx', 'x'));
        expect(await preparedRows(tctx.tx, byKeys(['in-tx']))).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await preparedRows(database.db, byKeys(['in-tx']))).toEqual([]);
  });

  it('reports PostgreSQL errors as a plain query does, and the session goes on', async () => {
    await preparedRows(database.db, insert('dup', 'first'));
    const err = await preparedRows(database.db, insert('dup', 'second')).catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    await expect(
      inTx(ctx, async (tctx) => {
        await preparedRows(tctx.tx, insert('dup', 'third'));
      }),
    ).rejects.toSatisfy(isUniqueViolation);
    expect(await preparedRows(database.db, byKeys(['dup']))).toEqual([
      expect.objectContaining({ key: 'dup', value: 'first' }),
    ]);
  });

  it('never runs inside another caller’s open transaction', async () => {
    const opened = deferred();
    const gate = deferred();
    const tx = inTx(ctx, async (tctx) => {
      await preparedRows(tctx.tx, insert('uncommitted', 'x'));
      opened.resolve();
      await gate.promise;
      throw new Error('roll back');
    }).catch(() => 'rolled back');
    await opened.promise;
    // On PGlite (one session) this waits for the transaction to end; on PostgreSQL it runs beside it.
    const outside = preparedRows(database.db, byKeys(['uncommitted']));
    await new Promise((resolve) => setImmediate(resolve));
    gate.resolve();
    expect(await tx).toBe('rolled back');
    expect(await outside).toEqual([]);
  });
});
