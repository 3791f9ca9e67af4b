import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rows, type Db, type Executor, type Tx } from './database.ts';

/**
 * Hot statements as named prepared statements: parsed and planned once per session instead of on
 * every call. On PGlite that is most of a small statement's cost (parse, analyze and plan run in
 * wasm on the Node thread; measured: the cart read 1.2 ms of CPU unprepared, 0.25 ms prepared);
 * on PostgreSQL it saves the server's parse and plan and the Parse message. Only for statements
 * whose text is constant (values as parameters, lists through textArray) and whose best plan does
 * not depend on the values: PostgreSQL settles on a generic plan after five runs. Never `*` (or
 * `t.*`) in the result: once a migration adds a column, PostgreSQL refuses to run a prepared
 * statement whose result would change shape ("cached plan must not change result type"), and a
 * running instance of a rolling deploy would fail until restarted.
 */

const dialect = new PgDialect();

/** Past this many distinct statements per process, new ones run unprepared (a text that varies must not grow the cache). */
const MAX_STATEMENTS = 500;
const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_STATEMENTS) {
    name = `e_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Root handle of each transaction opened through `transaction()`: a PGlite transaction does not
 * lead back to its database, whose single session the statement must be prepared in.
 */
const roots = new WeakMap<object, Db>();

/** `db.transaction(fn)`, with the transaction known to preparedRows (platform/context.ts's inTx uses it). */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => {
    roots.set(tx, db);
    return fn(tx);
  });
}

/**
 * A text[] of `values` for a prepared statement. Up to 8 values it is `ARRAY[$1, …]`, whose
 * length the planner counts: with an array parameter instead, the generic plan assumes ten
 * elements, costs more than a custom plan for the usual one or two, and PostgreSQL goes on
 * planning the statement at every run. More values are one array parameter.
 */
export function textArray(values: string[]): SQL {
  if (values.length === 0) return sql`'{}'::text[]`;
  if (values.length > 8) return sql`${sql.param(values)}::text[]`;
  return sql`array[${sql.join(
    values.map((v) => sql`${v}::text`),
    sql`, `,
  )}]`;
}

/** Runs `query` as a named prepared statement where the driver allows it, else as a plain query; answers its rows. */
export async function preparedRows<T>(exec: Executor, query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = nameOf(text);
  if (!name) return rows<T>(exec, query);
  const root = (exec as { $client?: unknown }).$client ? (exec as Db) : roots.get(exec);
  const client = (root as { $client?: unknown } | undefined)?.$client;
  if (isPglite(client)) {
    try {
      return (await pgliteRows(client, root !== exec, name, text, params)) as T[];
    } catch (err) {
      throw new DrizzleQueryError(text, params, err as Error);
    }
  }
  const session = (exec as { session?: PgSessionLike }).session;
  if (typeof session?.prepareQuery !== 'function' || !isPgPool(client ?? (session as { client?: unknown }).client))
    return rows<T>(exec, query);
  // node-postgres: drizzle's own prepared query (its type parsers, its error wrapping) with a name,
  // which pg prepares once per connection.
  const result = await session.prepareQuery({ sql: text, params }, undefined, name, false).execute();
  return (result as { rows: T[] }).rows;
}

interface PgSessionLike {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string,
    arrayMode: boolean,
  ): { execute(): Promise<unknown> };
}

/** A pg Pool (root) or PoolClient (in a transaction): both take `{ name, text }` queries. */
const isPgPool = (c: unknown): boolean =>
  typeof c === 'object' && c !== null && typeof (c as { query?: unknown }).query === 'function' && !isPglite(c);

// ---- PGlite: the extended protocol through its public execProtocolStream ----

/** The protocol messages and the parsers PGlite's own `parse` functions take. */
type BackendMessages = Parameters<PgliteModule['parse']['parseResults']>[0];
type Parsers = Parameters<PgliteModule['parse']['parseResults']>[1];

interface PgliteClient {
  execProtocolStream(message: Uint8Array, opts: { syncToFs?: boolean }): Promise<BackendMessages>;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** What `query()` holds outside a transaction, so a statement never lands inside another caller's open transaction. */
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  syncToFs(): Promise<void>;
  serializers: Record<number, (v: unknown) => string>;
  parsers: Parsers;
}

function isPglite(c: unknown): c is PgliteClient {
  const p = c as Partial<PgliteClient> | null | undefined;
  return typeof p?.execProtocolStream === 'function' && typeof p._runExclusiveTransaction === 'function';
}

type PgliteModule = typeof import('@electric-sql/pglite');
let pgliteModule: Promise<PgliteModule> | undefined;

/** Per client: statement text → the parameter types PostgreSQL inferred (to serialize values as `query()` does). */
const prepared = new WeakMap<PgliteClient, Map<string, number[]>>();
/** Per client: its parsers with timestamps, dates and intervals left as text, as drizzle's raw `execute` has them. */
const rawParsers = new WeakMap<PgliteClient, Parsers>();

// OIDs drizzle keeps as text in raw results: timestamp, timestamptz, interval, date and their arrays, numeric[].
const AS_TEXT = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];

async function pgliteRows(
  client: PgliteClient,
  inTransaction: boolean,
  name: string,
  text: string,
  params: unknown[],
): Promise<unknown[]> {
  pgliteModule ??= import('@electric-sql/pglite');
  const { protocol, parse } = await pgliteModule;
  const ser = protocol.serialize;
  let statements = prepared.get(client);
  if (!statements) {
    statements = new Map();
    prepared.set(client, statements);
  }
  let parsers = rawParsers.get(client);
  if (!parsers) {
    parsers = { ...client.parsers, ...Object.fromEntries(AS_TEXT.map((oid) => [oid, (v: string) => v])) };
    rawParsers.set(client, parsers);
  }
  const run = async () => {
    let types = statements.get(text);
    if (!types) {
      const described = await client.execProtocolStream(
        concat([ser.parse({ name, text }), ser.describe({ type: 'S', name }), ser.sync()]),
        { syncToFs: false },
      );
      types = parse.parseDescribeStatementResults(described);
      statements.set(text, types);
    }
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serialize = client.serializers[types[i]];
      return serialize ? serialize(v) : String(v);
    });
    // Bind, execute and sync in one call: on an error PostgreSQL skips to the Sync, and the client throws.
    const messages = await client.execProtocolStream(
      concat([ser.bind({ statement: name, values }), ser.describe({ type: 'P' }), ser.execute({}), ser.sync()]),
      { syncToFs: false },
    );
    if (!inTransaction) await client.syncToFs();
    return parse.parseResults(messages, parsers, { rowMode: 'object' })[0]?.rows ?? [];
  };
  return inTransaction ? client.runExclusive(run) : client._runExclusiveTransaction(() => client.runExclusive(run));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
