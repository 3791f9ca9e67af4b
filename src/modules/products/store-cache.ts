import type { Database } from '../../platform/db/database.ts';
import type { RepeatAnswer, RepeatKey, RepeatSource } from '../../platform/http/repeat-reads.ts';
import { readCatalogVersion } from './store-queries.ts';
import { VersionGate } from './version-gate.ts';

/** The channel migration store_catalog_notify's triggers notify on. */
export const STORE_CATALOG_CHANNEL = 'emporium_store_catalog';

/**
 * Store responses kept in memory, each for the catalog version it was read at; a request is
 * answered from memory only at the version that holds for it. Bounded by bytes; when full it
 * starts over (a catalog's hot pages come back at once).
 *
 * Embedded database: PGlite is one process (the data-dir lock), every write commits through it,
 * and its NOTIFY reaches the listener before the commit's promise resolves. The version is a
 * local counter the NOTIFY of migration store_catalog_notify's triggers moves (documents,
 * listing, stock, prices, regions, channel counts), so it has moved before the writer even gets
 * its answer: no round trip per request.
 *
 * PostgreSQL: other instances write, and their NOTIFY arrives some time after their commit (or
 * never, while a connection is down). The version is the database's (migration
 * store_catalog_version: moved by the same tables' writes, in the writer's transaction), read
 * through a VersionGate: each request waits for a read that started after it arrived, so it sees
 * every commit made before it on any instance, and the requests arriving together share that one
 * round trip. An answer is read after the version it is kept for, so it holds at least what that
 * version counts; and as snapshots are nested (a later one sees all an earlier one saw) and every
 * counted transaction adds to the sum, two reads with the same sum saw the same transactions.
 */
export class StoreCache implements RepeatSource {
  /** UTF-8 bytes: a socket takes them as they are, where a string is encoded again on every send. */
  private entries = new Map<string, Buffer>();
  /** The same bodies under the exact requests that got them, for the front door (repeat-reads.ts). */
  private repeats = new Map<string, RepeatAnswer>();
  private bytes = 0;
  /** The version the entries belong to (-1 on PostgreSQL until the first read). */
  version: number;
  /** PostgreSQL only: the database's version, read once for every request arriving together. */
  readonly gate?: VersionGate<number>;
  private readonly maxBytes: number;

  /**
   * `readVersion`: the database's version (PostgreSQL); without it, a local counter moved by
   * `clear()`. A read taking longer than `readLimitMs` fails its requests (503, as when the
   * database is unreachable) and lets the next one start: a server that stopped answering must
   * not hold every store read behind one query.
   */
  constructor(opts: { maxBytes?: number; readVersion?: () => Promise<number>; readLimitMs?: number } = {}) {
    this.maxBytes = opts.maxBytes ?? 8 * 1024 * 1024;
    const { readVersion, readLimitMs = 3_000 } = opts;
    this.version = readVersion ? -1 : 0;
    if (readVersion)
      this.gate = new VersionGate(async () => {
        const version = await within(readLimitMs, readVersion());
        this.advance(version);
        return version;
      });
  }

  /** The version a request arriving now is to be answered at. */
  current(): number | Promise<number> {
    return this.gate ? this.gate.next() : this.version;
  }

  get(key: string, version: number): Buffer | undefined {
    return version === this.version ? this.entries.get(key) : undefined;
  }

  /** Keeps `body`, read after `version` was, when that is still the current version. */
  set(key: string, body: Buffer, version: number): void {
    if (version !== this.version || body.length > this.maxBytes / 4) return;
    if (this.bytes + body.length > this.maxBytes) this.empty();
    this.entries.set(key, body);
    this.bytes += body.length;
  }

  recall(key: string, version: number): RepeatAnswer | undefined {
    return version === this.version ? this.repeats.get(key) : undefined;
  }

  /**
   * Keeps a body the entries hold (`set` first) under the request that got it. The body is
   * shared, so only the key counts against the size; the answers go when the entries go.
   */
  remember(repeat: RepeatKey, body: Buffer, version: number): void {
    if (version !== this.version || body.length > this.maxBytes / 4 || this.repeats.has(repeat.key)) return;
    if (this.bytes + repeat.key.length > this.maxBytes) this.empty();
    this.repeats.set(repeat.key, { body, cost: repeat.cost });
    this.bytes += repeat.key.length;
  }

  /** Embedded database: the catalog changed. */
  clear(): void {
    this.advance(this.version + 1);
  }

  private advance(version: number): void {
    if (version === this.version) return;
    this.version = version;
    this.empty();
  }

  private empty(): void {
    this.entries.clear();
    this.repeats.clear();
    this.bytes = 0;
  }

  /** The cache for this database: on PGlite listening for changes, on PostgreSQL reading its version. */
  static async open(database: Database): Promise<{ cache: StoreCache; close(): Promise<void> }> {
    if (database.kind === 'postgres') {
      return { cache: new StoreCache({ readVersion: () => readCatalogVersion(database.db) }), close: async () => {} };
    }
    const cache = new StoreCache();
    const unlisten = await database.listen(STORE_CATALOG_CHANNEL, () => cache.clear());
    return { cache, close: unlisten };
  }
}

/** `promise`, or a rejection after `ms` (an ETIMEDOUT, which the error handler answers with 503). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('The catalog version was not read in time'), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
