import type { Database } from '../../platform/db/database.ts';

/** The channel migration store_catalog_notify's triggers notify on. */
export const STORE_CATALOG_CHANNEL = 'emporium_store_catalog';

/**
 * Store responses kept in memory, embedded database only. PGlite is one process (the data-dir
 * lock), every write commits through it, and its NOTIFY reaches the listener before the commit's
 * promise resolves: so the cache is emptied by any change the store could show (triggers of
 * migration store_catalog_notify: documents, listing, stock, prices, regions) before the writer
 * even gets its answer, and a request after a checkout never sees the stock from before it.
 * On PostgreSQL, where other instances write and notifications arrive later, there is none.
 *
 * A read stores its answer only when no change happened while it ran (`version` unchanged).
 * Answers are kept as UTF-8 bytes: a hit is then written to the socket as is, where a string
 * would be measured and encoded again on every send (a list page is ~60-100 KB).
 * Bounded by bytes; when full it starts over (a catalog's hot pages come back at once).
 */
export class StoreCache {
  private entries = new Map<string, Buffer>();
  private bytes = 0;
  version = 0;

  constructor(private readonly maxBytes = 8 * 1024 * 1024) {}

  get(key: string): Buffer | undefined {
    return this.entries.get(key);
  }

  set(key: string, body: Buffer, versionAtStart: number): void {
    if (versionAtStart !== this.version || body.length > this.maxBytes / 4) return;
    if (this.bytes + body.length > this.maxBytes) this.clear();
    this.entries.set(key, body);
    this.bytes += body.length;
  }

  clear(): void {
    this.version++;
    this.entries.clear();
    this.bytes = 0;
  }

  /** The cache for this database, listening for changes, or undefined when the database is a server. */
  static async open(database: Database): Promise<{ cache?: StoreCache; close(): Promise<void> }> {
    if (database.kind !== 'pglite') return { close: async () => {} };
    const cache = new StoreCache();
    const unlisten = await database.listen(STORE_CATALOG_CHANNEL, () => cache.clear());
    return { cache, close: unlisten };
  }
}
