import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from './database.ts';
import { preparedRows } from './prepared.ts';

/** One part of a statement: a write, or a named write that `select` or a later part reads (its RETURNING). */
export type Part = SQL | readonly [name: string, write: SQL];

/**
 * Several writes as ONE statement, each a data-modifying CTE: atomic together (a statement is,
 * even outside a transaction) and one round trip, prepared (on PGlite every statement is parsed
 * and planned in wasm on the Node thread; on PostgreSQL each is a round trip). Each part is one
 * INSERT, UPDATE or DELETE (PostgreSQL allows data-modifying WITH only at the top level) and must
 * not read another part's rows: the parts all see the database as it was before the statement.
 * A part may be referred to by its name (given, or `w0`, `w1`, … by position) in `select`, or
 * in a later part that reads what an earlier one RETURNs.
 */
export function writeTogether<T = Record<string, unknown>>(
  exec: Executor,
  parts: Part[],
  select: SQL = sql`select 1 as done`,
): Promise<T[]> {
  const ctes = sql.join(
    parts.map((part, i) => {
      const [name, write] = Array.isArray(part) ? part : [`w${i}`, part];
      return sql`${sql.raw(name)} as (${write})`;
    }),
    sql`, `,
  );
  return preparedRows<T>(exec, sql`with ${ctes} ${select}`);
}
