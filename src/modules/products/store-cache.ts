import type { Database } from '../../platform/db/database.ts';
import type { RepeatSource } from '../../platform/http/repeat-reads.ts';
import { type CatalogLeases, STORE_CATALOG_CHANNEL, stockMoved } from './catalog-leases.ts';
import { readCatalogVersion } from './store-queries.ts';
import { VersionGate } from './version-gate.ts';

/**
 * The listing cache holds few answers, some large: the home page's category tree carries every
 * product of its categories (about 560 bytes each), 5.6 MB at 10,000 products, 15.7 MB for 100
 * categories of 100,000 products, whose two collections with their products are 28.8 MB. Building
 * one of those took seconds of CPU; keeping it costs its bytes. Kept up to 32 MB each, 64 MB in
 * all; a larger one is built for every request (one build at a time, `shared`).
 */
const LISTING_LIMITS = { maxBytes: 64 * 1024 * 1024, maxBody: 32 * 1024 * 1024 };

/**
 * Store responses kept in memory, each for the catalog version it was read at; a request is
 * answered from memory only at the version that holds for it. Bounded by bytes; when full, the
 * answers used least recently go first, and no answer larger than an eighth of the budget is
 * kept, so one client reading many large distinct pages cannot push out the pages every other
 * client reads. The version is a local counter: it moves whenever what was kept may no longer be
 * the catalog's.
 *
 * Embedded database: PGlite is one process (the data-dir lock), every write commits through it,
 * and its NOTIFY reaches the listener before the commit's promise resolves. The NOTIFY of
 * migration store_catalog_notify's triggers (documents, listing, stock, prices, regions, channel
 * counts) moves the counter, so it has moved before the writer even gets its answer: no round
 * trip per request.
 *
 * PostgreSQL: other instances write, and their NOTIFY arrives some time after their commit (or
 * never, while a connection is down).
 * - While this instance holds a read lease (catalog-leases.ts), the same NOTIFY moves the counter
 *   and requests are answered at once: a writer's answer waits until this instance heard it.
 * - Without one (at start, after the listening connection dropped), each request waits for a read
 *   of the database's version (migration store_catalog_version: moved by the same tables' writes,
 *   in the writer's transaction) that started after it arrived, through a VersionGate: it sees
 *   every commit made before it on any instance, and the requests arriving together share that one
 *   round trip. The counter moves when that version differs from the one read before. An answer
 *   is read after the version it is kept for, so it holds at least what that version counts; and as
 *   snapshots are nested (a later one sees all an earlier one saw) and every counted transaction
 *   adds to the sum, two reads with the same sum saw the same transactions.
 *
 * Stock moves with every order, so the answers that show stock are not started over for one
 * (migration store_stock_products): `forget(products)` lets go only of the answers holding one of
 * the products whose stock moved, and an answer whose read began before such a move is not kept
 * (`stockMark()` before the read, `set(…, { products, mark })` after it), as the version does for
 * every other change.
 */

export class StoreCache implements RepeatSource {
  /**
   * UTF-8 bytes (a socket takes them as they are, where a string is encoded again on every send),
   * in the order they were last used: a Map iterates in insertion order, and a use moves its entry
   * to the end, so the first entry is the one to let go when the budget is full.
   */
  private entries = new Map<string, Entry>();
  /** The same bodies under the exact requests that got them, for repeats of those requests (repeat-reads.ts). */
  private repeats = new Map<string, Repeat>();
  /** The entry used last: a hot page asked for again and again is not moved on every hit. */
  private newest: Entry | undefined;
  private bytes = 0;
  /** The kept answers holding each product (those kept with their products: `set`'s scope). */
  private holding = new Map<string, Set<Entry>>();
  /** Kept answers that did not say which products they hold: any stock move lets them go. */
  private unscoped = new Set<Entry>();
  /** Stock moves heard since the version last moved (`forget`). */
  private moves = 0;
  /** Products whose stock moved since the version last moved: the move's number and when it was heard. */
  private moved = new Map<string, { n: number; at: number }>();
  /** Keys let go by a stock move, and when: where their next miss may read (`since`). A hint only. */
  private goneAt = new Map<string, number>();
  /** The version the entries belong to: moved by `clear()`. */
  version = 0;
  /**
   * performance.now() when the version last moved: what it counts was committed before then, so a
   * read replica that has replayed all the primary had at a later moment has it too (read replicas).
   */
  changedAt = performance.now();
  /** PostgreSQL only: the database's version, read once for every request arriving together. */
  readonly gate?: VersionGate<number>;
  /** The database's version at the gate's last read. */
  private read: number | undefined;
  private readonly lease?: Pick<CatalogLeases, 'holds'>;
  private readonly maxBytes: number;
  /** The largest body kept: an eighth of the budget unless the constructor says otherwise. */
  private readonly maxBody: number;
  /** Answers being built, by version and key: requests missing one together wait for one build. */
  private building = new Map<string, Promise<Buffer>>();

  /**
   * `readVersion`: the database's version (PostgreSQL), read for requests arriving while `lease`
   * does not hold. A read taking longer than `readLimitMs` fails its requests (503, as when the
   * database is unreachable) and lets the next one start: a server that stopped answering must
   * not hold every store read behind one query.
   */
  constructor(
    opts: {
      maxBytes?: number;
      /** The largest answer kept (default: an eighth of `maxBytes`). */
      maxBody?: number;
      readVersion?: () => Promise<number>;
      readLimitMs?: number;
      lease?: Pick<CatalogLeases, 'holds'>;
    } = {},
  ) {
    this.maxBytes = opts.maxBytes ?? 8 * 1024 * 1024;
    this.maxBody = opts.maxBody ?? Math.floor(this.maxBytes / 8);
    const { readVersion, readLimitMs = 3_000 } = opts;
    this.lease = opts.lease;
    if (readVersion)
      this.gate = new VersionGate(async () => {
        const read = await within(readLimitMs, readVersion());
        if (read !== this.read) {
          this.read = read;
          this.clear();
        }
        return this.version;
      });
  }

  /** The version a request arriving now is to be answered at. */
  current(): number | Promise<number> {
    return !this.gate || this.lease?.holds() ? this.version : this.gate.next();
  }

  get(key: string, version: number): Buffer | undefined {
    if (version !== this.version) return undefined;
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.use(entry);
    return entry.body;
  }

  /**
   * Keeps `body`, read after `version` was, when that is still the current version. `scope`: the
   * products the answer holds and the `stockMark()` taken before its read; it is not kept when the
   * stock of one of them moved since. Without a scope, any stock move lets it go, and it is not
   * kept once one was heard at this version (its read may have begun before).
   */
  set(key: string, body: Buffer, version: number, scope?: { products: readonly string[]; mark: number }): void {
    if (version !== this.version || body.length > this.maxBody) return;
    if (scope ? scope.products.some((p) => (this.moved.get(p)?.n ?? 0) > scope.mark) : this.moves > 0) return;
    const old = this.entries.get(key);
    if (old) this.drop(old); // two misses of one key read at once: keep the later
    const entry: Entry = { key, body, size: key.length + body.length, repeats: [], products: scope?.products };
    this.makeRoom(entry.size);
    this.entries.set(key, entry);
    this.newest = entry;
    this.bytes += entry.size;
    if (!entry.products) this.unscoped.add(entry);
    else
      for (const p of entry.products) {
        const held = this.holding.get(p);
        if (held) held.add(entry);
        else this.holding.set(p, new Set([entry]));
      }
  }

  /**
   * The answer kept under `key` at `version`, or built by `build` (and kept when it may be). While
   * one request builds it, the others asking for it wait for that build instead of starting their
   * own: ten shoppers arriving on a home page whose category tree just went were ten builds of the
   * same megabytes, each slower for the others.
   */
  shared(key: string, version: number, build: () => Promise<Buffer>): Buffer | Promise<Buffer> {
    const kept = this.get(key, version);
    if (kept !== undefined) return kept;
    const id = `${version}\u0000${key}`;
    let pending = this.building.get(id);
    if (!pending) {
      pending = build()
        .then((body) => {
          this.set(key, body, version);
          return body;
        })
        .finally(() => this.building.delete(id));
      this.building.set(id, pending);
    }
    return pending;
  }

  /** Taken before a read that may be kept with its products (`set`): the stock moves heard so far. */
  stockMark(): number {
    return this.moves;
  }

  /**
   * The stock of `products` moved (committed before now): the answers holding one of them go, and
   * none read before now is kept for them. Past MOVED_LIMIT products moved at one version the
   * whole cache starts over instead, which bounds what is remembered of the moves.
   */
  forget(products: readonly string[]): void {
    this.moves++;
    const at = performance.now();
    for (const p of products) {
      this.moved.set(p, { n: this.moves, at });
      const held = this.holding.get(p);
      if (held)
        for (const entry of [...held]) {
          this.goneAt.set(entry.key, at);
          this.drop(entry);
        }
    }
    for (const entry of [...this.unscoped]) this.drop(entry);
    if (this.moved.size > MOVED_LIMIT) this.clear();
    else if (this.goneAt.size > MOVED_LIMIT) this.goneAt.clear();
  }

  /**
   * The moment after which a read replica must have replayed what the primary had, for a miss of
   * `key` to read there (read replicas): when the version last moved, or, for an answer a stock
   * move let go, when that move was heard. A key never kept may still hold a product that moved
   * later: `movedAt` tells, once its products are known.
   */
  since(key: string): number {
    return Math.max(this.changedAt, this.goneAt.get(key) ?? Number.NEGATIVE_INFINITY);
  }

  /** When the stock of one of `products` last moved at this version (or the version moved), for read replicas. */
  movedAt(products: readonly string[]): number {
    let at = this.changedAt;
    for (const p of products) at = Math.max(at, this.moved.get(p)?.at ?? at);
    return at;
  }

  recall(key: string, version: number): Buffer | undefined {
    if (version !== this.version) return undefined;
    const repeat = this.repeats.get(key);
    if (repeat === undefined) return undefined;
    this.use(repeat.entry);
    return repeat.body;
  }

  /**
   * Keeps the body kept under `key` (`set` first) for the exact request that got it. The body is
   * shared, so only the request's key counts against the size; it goes when the entry goes.
   */
  remember(key: string, repeat: string, version: number): void {
    if (version !== this.version || this.repeats.has(repeat)) return;
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.use(entry);
    this.makeRoom(repeat.length);
    if (!this.entries.has(key)) return; // the budget held nothing else
    this.repeats.set(repeat, { body: entry.body, entry });
    entry.repeats.push(repeat);
    entry.size += repeat.length;
    this.bytes += repeat.length;
  }

  /** Moves `entry` to the end of the order of use. */
  private use(entry: Entry): void {
    if (entry === this.newest) return;
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
    this.newest = entry;
  }

  /** Lets the least recently used entries go until `size` more bytes fit. */
  private makeRoom(size: number): void {
    while (this.bytes + size > this.maxBytes) {
      const oldest = this.entries.values().next().value;
      if (oldest === undefined) return;
      this.drop(oldest);
    }
  }

  private drop(entry: Entry): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    for (const key of entry.repeats) this.repeats.delete(key);
    this.bytes -= entry.size;
    if (this.newest === entry) this.newest = undefined;
    if (!entry.products) this.unscoped.delete(entry);
    else
      for (const p of entry.products) {
        const held = this.holding.get(p);
        held?.delete(entry);
        if (held?.size === 0) this.holding.delete(p);
      }
  }

  /** The catalog changed (or may have). */
  clear(): void {
    this.version++;
    this.changedAt = performance.now();
    this.empty();
  }

  private empty(): void {
    this.entries.clear();
    this.repeats.clear();
    this.newest = undefined;
    this.bytes = 0;
    this.holding.clear();
    this.unscoped.clear();
    this.moves = 0;
    this.moved.clear();
    this.goneAt.clear();
  }

  /**
   * The caches for this database: on PGlite listening for changes; on PostgreSQL hearing them
   * through the leases while they hold, reading the version otherwise. `cache` keeps answers that
   * show stock (every product answer carries `inventory_quantity`) and starts over on any change;
   * `listing` keeps answers that show none (categories and collections with their products,
   * `fields=handle` lists) and starts over only when what the store lists changed, not on the stock
   * move of every order (the NOTIFY's payload `s`, migration store_listing_split). A stock move
   * names its products when it can (`s <product id> …`, migration store_stock_products): only the
   * answers holding them go from `cache`. Without a lease both read the same version, which counts
   * stock too: they then start over together.
   */
  static async open(
    database: Database,
    leases: CatalogLeases | null,
  ): Promise<{ cache: StoreCache; listing: StoreCache; close(): Promise<void> }> {
    if (leases) {
      const readVersion = () => readCatalogVersion(database.db);
      const cache = new StoreCache({ readVersion, lease: leases });
      const listing = new StoreCache({ ...LISTING_LIMITS, readVersion, lease: leases });
      leases.onChange((kind, products) => {
        if (kind === 'stock' && products) cache.forget(products);
        else cache.clear();
        if (kind === 'listing') listing.clear();
      });
      return { cache, listing, close: async () => {} };
    }
    const cache = new StoreCache();
    const listing = new StoreCache(LISTING_LIMITS);
    const unlisten = await database.listen(STORE_CATALOG_CHANNEL, (payload) => {
      const products = stockMoved(payload);
      if (products) cache.forget(products);
      else cache.clear();
      if (products === undefined) listing.clear(); // not a stock move (or a payload not known here)
    });
    return { cache, listing, close: unlisten };
  }
}

/** A kept body, with the keys of the requests it is also kept under for their repeats. */
interface Entry {
  key: string;
  body: Buffer;
  /** The body's and every key's length. */
  size: number;
  repeats: string[];
  /** The products the answer holds; undefined: not said (any stock move lets it go). */
  products?: readonly string[];
}

/** Products whose stock moved at one version remembered at most (`forget`). */
const MOVED_LIMIT = 20_000;

/** A body kept for a repeat of one exact request, and the entry it goes with. */
interface Repeat {
  body: Buffer;
  entry: Entry;
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
