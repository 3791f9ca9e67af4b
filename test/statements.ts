import pg from 'pg';
import type { Database } from '../src/platform/db/database.ts';

/**
 * Counts the statements a piece of work sends to the database (tests only): the proof that a
 * call does less, where timings on a shared machine prove nothing. A statement is one
 * `Client.query` on PostgreSQL (BEGIN and COMMIT included), one Execute or simple Query message
 * on PGlite. The drivers lose the caller's async context in their queues, so everything sent
 * while `fn` runs counts; the app's background workers may add a statement now and then, never
 * take one away, so the least of a few runs is the work's own count.
 */
const sent = { n: 0 };
const installed = new WeakSet<object>();

function install(database: Database): void {
  if (database.kind === 'postgres') {
    if (installed.has(pg.Client.prototype)) return;
    installed.add(pg.Client.prototype);
    const query = pg.Client.prototype.query;
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads, passed through unchanged
    pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
      sent.n++;
      return Reflect.apply(query, this, args);
    } as typeof query;
    return;
  }
  const client = (database.db as unknown as { $client: { execProtocolRawSync(m: Uint8Array): unknown } }).$client;
  if (installed.has(client)) return;
  installed.add(client);
  const raw = client.execProtocolRawSync.bind(client);
  client.execProtocolRawSync = (message: Uint8Array) => {
    sent.n += executions(message);
    return raw(message);
  };
}

/** Execute ('E') and simple Query ('Q') messages in a frontend message buffer. */
function executions(message: Uint8Array): number {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  let n = 0;
  for (let at = 0; at + 5 <= message.length; at += 1 + view.getInt32(at + 1)) {
    const type = message[at];
    if (type === 0x45 || type === 0x51) n++;
  }
  return n;
}

/** `fn` run `runs` times (it must be repeatable, e.g. a read): its last result and its least statement count. */
export async function statementsOf<T>(
  database: Database,
  fn: () => Promise<T>,
  runs = 3,
): Promise<{ result: T; statements: number }> {
  install(database);
  let least = Number.POSITIVE_INFINITY;
  let result: T | undefined;
  for (let i = 0; i < runs; i++) {
    const before = sent.n;
    result = await fn();
    least = Math.min(least, sent.n - before);
  }
  return { result: result as T, statements: least };
}
