import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from './database.ts';
import { preparedRows } from './prepared.ts';

/**
 * Several writes as ONE statement, each a data-modifying CTE: atomic together (a statement is,
 * even outside a transaction) and one round trip, prepared (on PGlite every statement is parsed
 * and planned in wasm on the Node thread; on PostgreSQL each is a round trip). Each part is one
 * INSERT, UPDATE or DELETE (PostgreSQL allows data-modifying WITH only at the top level) and must
 * not read another part's rows: the parts all see the database as it was before the statement.
 * A part may be referred to by its name (`w0`, `w1`, … in order) in `select`, or in a later part
 * that reads what an earlier one RETURNs.
 */
export function writeTogether<T = Record<string, unknown>>(
  exec: Executor,
  parts: SQL[],
  select: SQL = sql`select 1 as done`,
): Promise<T[]> {
  const ctes = sql.join(
    parts.map((part, i) => sql`${sql.raw(`w${i}`)} as (${part})`),
    sql`, `,
  );
  return preparedRows<T>(exec, sql`with ${ctes} ${select}`);
}
