import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from './database.ts';
import { preparedRows } from './prepared.ts';

/** One part of a statement: a write, or a named write that `select` or a later part reads (its RETURNING). */
export type Part = SQL | NamedPart;
export type NamedPart = readonly [name: string, write: SQL];

/**
 * Several writes as ONE statement, each a data-modifying CTE: atomic together (a statement is,
 * even outside a transaction) and one round trip, prepared (on PGlite every statement is parsed
 * and planned in wasm on the Node thread; on PostgreSQL each is a round trip). Each part is one
 * INSERT, UPDATE or DELETE (PostgreSQL allows data-modifying WITH only at the top level) and must
 * not read another part's rows: the parts all see the database as it was before the statement.
 * A part that is read (in `select`, or in a later part that reads what an earlier one RETURNs)
 * is read by the name it was given; build such statements with `NamedWrites`.
 */
export function writeTogether<T = Record<string, unknown>>(
  exec: Executor,
  parts: Part[],
  select: SQL = sql`select 1 as done`,
): Promise<T[]> {
  const ctes = sql.join(
    parts.map((part, i) => {
      const [name, write] = Array.isArray(part) ? part : [`w${i}`, part];
      return sql`${sql.identifier(name)} as (${write})`;
    }),
    sql`, `,
  );
  return preparedRows<T>(exec, sql`with ${ctes} ${select}`);
}

const IDENTIFIER = /^[a-z][a-z0-9_]*$/;

/**
 * A statement of writeTogether whose parts all have names, so what reads a part's RETURNING reads
 * it by name and never by position: parts added by several modules can be reordered or grown
 * without breaking a reader. `add` answers the reference to put in SQL
 * (sql`(select display_id from ${order})`); `ref` finds one by name and throws when no such part
 * was added, so a misspelt or missing part fails at once, before any SQL runs. Names are plain
 * lower-case identifiers, unique in the statement (two modules choosing the same one throw),
 * and quoted, so a keyword (`order`) is a name like any other.
 */
export class NamedWrites {
  private readonly parts: NamedPart[] = [];

  add(name: string, write: SQL): SQL {
    if (!IDENTIFIER.test(name)) throw new Error(`Part name "${name}" is not a lower-case identifier`);
    if (this.has(name)) throw new Error(`Two parts of one statement are named "${name}"`);
    this.parts.push([name, write]);
    return sql`${sql.identifier(name)}`;
  }

  addAll(parts: readonly NamedPart[]): void {
    for (const [name, write] of parts) this.add(name, write);
  }

  has(name: string): boolean {
    return this.parts.some(([n]) => n === name);
  }

  ref(name: string): SQL {
    if (!this.has(name)) throw new Error(`No part of this statement is named "${name}"`);
    return sql`${sql.identifier(name)}`;
  }

  /** Runs every part, then `select`, which reads the parts' RETURNING by the references above. */
  run<T = Record<string, unknown>>(exec: Executor, select?: SQL): Promise<T[]> {
    return writeTogether<T>(exec, [...this.parts], select);
  }
}
