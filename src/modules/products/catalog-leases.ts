import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { type SQL, sql } from 'drizzle-orm';
import { rows, type Database } from '../../platform/db/database.ts';

/**
 * The channel migration store_catalog_notify's triggers notify on (an empty payload: the catalog
 * changed). The leases below speak on it too, so one connection's order covers both.
 */
export const STORE_CATALOG_CHANNEL = 'emporium_store_catalog';
/**
 * The payload of a change of stock only (migration store_listing_split), alone when it may touch
 * any product, or followed by the ids of the products whose stock moved (migration
 * store_stock_products); an empty one: what the store lists changed.
 */
export const STOCK_PAYLOAD = 's';
/**
 * What a change is to the kept answers: `stock` lets go of those that show stock (of the products
 * named, when they are), `listing` of all of them.
 */
export type CatalogChange = 'stock' | 'listing';

/**
 * The products a catalog payload says moved stock: their ids; null for a stock move that may touch
 * any product (`s`); undefined when it is no stock move.
 */
export function stockMoved(payload: string): readonly string[] | null | undefined {
  if (payload === STOCK_PAYLOAD) return null;
  if (!payload.startsWith(`${STOCK_PAYLOAD} `)) return undefined;
  return payload.slice(STOCK_PAYLOAD.length + 1).split(' ');
}

/** A lease runs this long from the moment its renewal was sent. */
export const LEASE_MS = 1_500;
/** What store_catalog_bump() (migration store_catalog_leases) raises in a transaction that changed the store. */
const CHANGED_NOTICE = 'emporium_store_catalog changed';
/** What a listing change (not stock alone) raises too (migration store_listing_split). */
const LISTING_NOTICE = 'emporium_store_listing changed';
/**
 * What a stock move raises, followed by its NOTIFY's payload, or by nothing when it moved no
 * product the store shows (migration store_stock_products).
 */
const STOCK_NOTICE = 'emporium_store_stock';
/** Stock NOTICEs remembered for the writes in flight (`stockSince`). */
const STOCK_LOG = 1_024;
const RENEW_MS = 300;
/** Taken off the holder's end of its lease: its clock and the database's may not tick alike. */
const MARGIN_MS = 100;

/**
 * Read leases on the store catalog, PostgreSQL only (the embedded database is one process and
 * hears every commit before the writer gets its answer; store-cache.ts).
 *
 * Without a lease, an instance reads the catalog's version for every store request (a round trip
 * the requests arriving together share), so a write committed anywhere before the request shows.
 * With one, it answers from memory at once, and the wait moves to the writers, which are few:
 * the HTTP answer of a request that changed what the store shows (its COMMIT came with the NOTICE
 * of migration store_catalog_leases) is held until every instance holding a lease has heard the
 * write's NOTIFY, or until that instance's lease has run out (the scheme of Chubby's cache
 * invalidation). What a client can observe is the same: once a write's answer has arrived, every
 * instance's next read shows it. Writes made outside the HTTP API (psql, background jobs) show
 * once their NOTIFY arrives, a few milliseconds later.
 *
 * Why it holds (PostgreSQL delivers the NOTIFYs of transactions in the order they committed):
 * - Renewal: one statement extends this instance's row in store_catalog_leases and sends a ping
 *   `p <holder> <n>`. The lease counts only once the ping comes back on our listening connection:
 *   by then every NOTIFY committed before it has arrived. It ends LEASE_MS after the renewal was
 *   SENT, before the database's `until` (now() of that statement, later, plus LEASE_MS).
 * - A write: after its transaction committed, `settle()` starts this instance's answers over and
 *   reads the leases still running. When other instances hold one, it sends `w <writer> <n>`; each
 *   acknowledges the `w` when it hears it, hence after the write's own NOTIFY, and the writer waits
 *   for those acknowledgements, or for each lease's `until`. A holder missing from that read
 *   renewed after it, so after the commit: it heard the write before its ping. With no other
 *   holder (one instance), a write costs that one read and no NOTIFY.
 * - The listening connection dropped: NOTIFYs were missed, so the lease ends at once, and a lease
 *   taken again starts the caches over (`onChange`).
 */
export class CatalogLeases {
  readonly holder = randomUUID();
  /** performance.now() until which this instance holds its lease. */
  private expiry = 0;
  private seq = 0;
  /** Transactions of this process that changed what the store shows (their NOTICE came with the COMMIT). */
  private commits = 0;
  /** Of the NOTICEs above, those of listing changes (any number per transaction: only equality is compared). */
  private listingCommits = 0;
  /**
   * The stock NOTICEs of this process's statements, latest last (at most STOCK_LOG): the products
   * each moved, null for any. `stockBase` counts the ones let go before the first here.
   */
  private stockLog: (readonly string[] | null)[] = [];
  private stockBase = 0;
  /** Renewals sent and not heard back yet: their number and when they were sent. */
  private readonly pings = new Map<number, number>();
  private readonly settling = new Map<number, Settling>();
  private readonly changeHandlers: ((kind: CatalogChange, products?: readonly string[] | null) => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stopNotices: (() => void) | undefined;
  private closed = false;
  /** Whether NOTIFYs may have been missed since the last lease (at start, after the connection dropped). */
  private missed = true;
  /** Times a held lease ran out before its renewal came back while the connection stayed (`renewed`). */
  lapses = 0;
  private lastLapseLog = Number.NEGATIVE_INFINITY;
  /** A renewal's statement is on its way (`renew`). */
  private renewing = false;

  private constructor(
    private readonly database: Database,
    private readonly log?: LeaseLog,
  ) {}

  /**
   * The leases of this database: PostgreSQL only, null on the embedded database. Nothing is
   * waited for: the listening connection opens beside the start-up (reads go through the version
   * until the first lease), and is tried again every second while it cannot open.
   */
  static open(database: Database, log?: LeaseLog): CatalogLeases | null {
    if (database.kind !== 'postgres') return null;
    const leases = new CatalogLeases(database, log);
    leases.stopNotices = database.onNotice?.((message) => {
      if (message === CHANGED_NOTICE) leases.commits++;
      else if (message === LISTING_NOTICE) leases.listingCommits++;
      else if (message === STOCK_NOTICE || message.startsWith(`${STOCK_NOTICE} `))
        leases.stockNoticed(message.slice(STOCK_NOTICE.length + 1));
    });
    void leases.listen();
    // Rows of instances that stopped without saying so (their leases ran out long ago). The app is
    // built while the database migrates (main.ts): until the table is there this fails, as
    // renewals do (no lease is held, reads go through the version).
    database.db
      .execute(sql`delete from store_catalog_leases where until < now() - interval '1 minute'`)
      .catch(() => {});
    leases.timer = setInterval(() => leases.renew(), RENEW_MS);
    leases.timer.unref();
    return leases;
  }

  private async listen(): Promise<void> {
    try {
      const unlisten = await this.database.listen(
        STORE_CATALOG_CHANNEL,
        (payload) => this.heard(payload),
        () => this.lost(),
      );
      if (this.closed) await unlisten();
      else this.unlisten = unlisten;
      this.renew();
    } catch {
      if (!this.closed) setTimeout(() => void this.listen(), 1_000).unref();
    }
  }

  /** How many transactions of this process changed what the store shows so far. */
  get commitCount(): number {
    return this.commits;
  }

  /** How many listing changes (not stock alone) statements of this process made so far. */
  get listingCount(): number {
    return this.listingCommits;
  }

  /** How many stock NOTICEs statements of this process raised so far. */
  get stockCount(): number {
    return this.stockBase + this.stockLog.length;
  }

  /**
   * The products whose stock the statements of this process moved since the stock count was
   * `from` (their NOTICEs came before their COMMIT's answer): null when one may have moved any, or
   * when none was heard at all (then nothing tells which), or when that is too long ago to tell.
   */
  stockSince(from: number): readonly string[] | null {
    if (from < this.stockBase || from >= this.stockCount) return null;
    const products = new Set<string>();
    for (const moved of this.stockLog.slice(from - this.stockBase)) {
      if (moved === null) return null;
      for (const p of moved) products.add(p);
    }
    return [...products];
  }

  private stockNoticed(payload: string): void {
    this.stockLog.push(payload === '' ? [] : (stockMoved(payload) ?? null));
    if (this.stockLog.length > STOCK_LOG) {
      const gone = this.stockLog.length - STOCK_LOG / 2;
      this.stockLog = this.stockLog.slice(gone);
      this.stockBase += gone;
    }
  }

  /** Whether this instance may answer store reads from memory without reading the version. */
  holds(): boolean {
    return performance.now() < this.expiry;
  }

  /**
   * Called when the catalog changed, and when a lease starts after none ran (NOTIFYs may have been
   * missed). `products`: for a stock change, the products whose stock moved (null or absent: any).
   */
  onChange(handler: (kind: CatalogChange, products?: readonly string[] | null) => void): void {
    this.changeHandlers.push(handler);
  }

  /**
   * Resolves once every instance holding a lease has heard what this instance committed before
   * the call (or its lease ran out). `lenient`: when the database cannot be asked, resolve at once
   * (an error answer, nothing was written) instead of waiting out the longest lease. `products`:
   * for a stock change, the products whose stock it moved (null: any).
   */
  async settle(
    lenient = false,
    kind: CatalogChange = 'listing',
    products: readonly string[] | null = null,
  ): Promise<void> {
    if (this.closed) return;
    // This instance's own answers start over now: the write has committed, its NOTIFY may still be on its way.
    this.changed(kind, products);
    try {
      const holders = await rows<{ holder: string; ms: number }>(
        this.database.db,
        sql`select holder, (extract(epoch from until - now()) * 1000)::float8 as ms
            from store_catalog_leases where until > now()`,
      );
      const others = holders.filter((h) => h.holder !== this.holder);
      // One instance (or none other holding): nothing to tell, and no NOTIFY to send.
      if (others.length) await this.tell(others);
    } catch {
      if (!lenient) await delay(LEASE_MS);
    }
  }

  /** Sends a `w` and waits for each of `holders` to acknowledge it, or for its lease to end. */
  private async tell(holders: { holder: string; ms: number }[]): Promise<void> {
    const n = ++this.seq;
    const settling = new Settling();
    this.settling.set(n, settling); // before the `w`: an acknowledgement may come back at once
    try {
      await this.database.db.execute(sql`select pg_notify(${STORE_CATALOG_CHANNEL}, ${`w ${this.holder} ${n}`})`);
      await settling.wait(holders);
    } finally {
      this.settling.delete(n);
    }
  }

  private heard(payload: string): void {
    const products = payload === '' ? null : stockMoved(payload);
    if (products !== undefined) {
      this.changed(payload === '' ? 'listing' : 'stock', products);
      return;
    }
    const [kind, from, n, by] = payload.split(' ');
    const seq = Number(n);
    if (kind === 'p' && from === this.holder) this.renewed(seq);
    else if (kind === 'w' && from && from !== this.holder) this.acknowledge(from, n);
    else if (kind === 'a' && from === this.holder && by) this.settling.get(seq)?.ack(by);
  }

  private renewed(seq: number): void {
    const sentAt = this.pings.get(seq);
    if (sentAt === undefined) return;
    for (const k of this.pings.keys()) if (k <= seq) this.pings.delete(k);
    if (this.closed) return;
    if (!this.holds()) {
      // A new lease. After a dropped connection what was kept may lack what was missed, so it starts
      // over. A lease that only ran out (its renewals came back late) missed nothing: every NOTIFY
      // came on the same connection, and the answers kept meanwhile followed the version read.
      if (this.missed) this.changed();
      else this.lapsed(performance.now() - this.expiry);
      this.missed = false;
    }
    this.expiry = Math.max(this.expiry, sentAt + LEASE_MS - MARGIN_MS);
  }

  /** Tells writer `from` that its `w` was heard (so was every NOTIFY committed before it). */
  private acknowledge(from: string, n: string | undefined): void {
    if (this.closed) return;
    this.beside(sql`select pg_notify(${STORE_CATALOG_CHANNEL}, ${`a ${from} ${n} ${this.holder}`})`).catch(
      () => {}, // the writer then waits out this lease
    );
  }

  private renew(): void {
    // One renewal at a time: on a connection that hangs without dropping, each would wait behind
    // the last, piling up, and a later one proves no more than the one still on its way.
    if (this.closed || this.renewing) return;
    this.renewing = true;
    const n = ++this.seq;
    const now = performance.now();
    for (const [k, sentAt] of this.pings) if (now - sentAt > LEASE_MS) this.pings.delete(k);
    this.pings.set(n, now);
    this.beside(
      sql`with lease as (
              insert into store_catalog_leases (holder, until)
              values (${this.holder}, now() + ${LEASE_MS} * interval '1 millisecond')
              on conflict (holder) do update set until = excluded.until
              returning holder)
            select pg_notify(${STORE_CATALOG_CHANNEL}, ${`p ${this.holder} ${n}`}) from lease`,
    )
      .catch(() => this.pings.delete(n)) // the lease runs out unless a later renewal gets through
      .finally(() => {
        this.renewing = false;
      });
  }

  /**
   * Renewals and acknowledgements go on the listening connection: through the pool they waited
   * behind the store's reads, and under load (ten shoppers on 100,000 products) the lease ran out
   * before its renewal came back, over and over. While that connection is down they fail: no lease
   * can be held then anyway (PGlite has no leases; the pool is there for a database without it).
   */
  private async beside(query: SQL): Promise<void> {
    if (this.database.besideListener) await this.database.besideListener(query);
    else await this.database.db.execute(query);
  }

  private lost(): void {
    this.expiry = 0;
    this.missed = true;
  }

  /**
   * Store reads went through the version for `ms` (a round trip each, and every stock move then
   * starts the kept answers over): renewals waiting behind busy pool connections or a busy event
   * loop. Said once a minute at most, with the count.
   */
  private lapsed(ms: number): void {
    this.lapses++;
    const now = performance.now();
    if (now - this.lastLapseLog < 60_000) return;
    this.lastLapseLog = now;
    this.log?.warn(
      { lapsed_ms: Math.round(ms), lapses: this.lapses },
      'The store catalog read lease ran out before its renewal came back; store reads read the version meanwhile',
    );
  }

  private changed(kind: CatalogChange = 'listing', products: readonly string[] | null = null): void {
    for (const handler of this.changeHandlers) handler(kind, products);
  }

  /** Stops holding first (writers then stop waiting for this instance), then leaves the table. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.expiry = 0;
    clearInterval(this.timer);
    this.stopNotices?.();
    for (const s of this.settling.values()) s.release();
    await this.database.db.execute(sql`delete from store_catalog_leases where holder = ${this.holder}`).catch(() => {});
    await this.unlisten?.();
  }
}

/** Where a lapsed lease is told (the app's logger). */
export interface LeaseLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** One write's wait: the holders that have not acknowledged it, each until its lease ends. */
class Settling {
  private readonly acked = new Set<string>();
  private pending = new Map<string, number>();
  private done: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** An acknowledgement may arrive before the holders were read: it is kept. */
  ack(holder: string): void {
    this.acked.add(holder);
    if (this.pending.delete(holder)) this.check();
  }

  wait(holders: { holder: string; ms: number }[]): Promise<void> {
    const now = performance.now();
    for (const h of holders) if (!this.acked.has(h.holder)) this.pending.set(h.holder, now + h.ms);
    if (!this.pending.size) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.done = resolve;
      this.check();
    });
  }

  release(): void {
    this.pending.clear();
    this.check();
  }

  /** Drops the holders whose lease ended, and resolves when none is left; else waits for the next end. */
  private check(): void {
    const now = performance.now();
    for (const [holder, end] of this.pending) if (end <= now) this.pending.delete(holder);
    clearTimeout(this.timer);
    if (!this.pending.size) {
      this.done?.();
      this.done = undefined;
      return;
    }
    const next = Math.min(...this.pending.values());
    this.timer = setTimeout(() => this.check(), Math.max(1, Math.ceil(next - now)));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The store catalog's read leases (PostgreSQL), null on the embedded database. */
    catalogLeases: CatalogLeases | null;
  }
}
