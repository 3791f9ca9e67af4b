import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rows, type Executor } from '../../platform/db/database.ts';

const dialect = new PgDialect();

interface PgPool {
  query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  totalCount: number;
}

const isPgPool = (c: unknown): c is PgPool =>
  typeof c === 'object' &&
  c !== null &&
  typeof (c as PgPool).query === 'function' &&
  typeof (c as PgPool).totalCount === 'number';

const names = new Map<string, string>();

/**
 * Runs a hot read as a named prepared statement when the executor is the node-postgres pool:
 * each connection parses and plans the (large, constant) JSON statement once instead of on
 * every request, which is a good part of the cost of a store list. Elsewhere (PGlite, inside a
 * transaction) it is a plain query. Only for statements whose plan does not depend on the
 * values: a LIKE pattern, for instance, needs the value to pick the trigram index.
 */
export async function preparedRows<T>(db: Executor, query: SQL): Promise<T[]> {
  const pool = (db as { $client?: unknown }).$client;
  if (!isPgPool(pool)) return rows<T>(db, query);
  const { sql: text, params } = dialect.sqlToQuery(query);
  let name = names.get(text);
  if (!name) {
    name = `products_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (names.size < 1000) names.set(text, name);
  }
  const res = await pool.query({ name, text, values: params });
  return res.rows as T[];
}
