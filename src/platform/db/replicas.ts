/**
 * PostgreSQL streaming replicas for reads (`DATABASE_READ_URL`, docs/configuration.md).
 *
 * A monitor asks the primary for its WAL position (`pg_current_wal_insert_lsn()`: it counts
 * commits made with synchronous_commit = off, which the write position may not yet) and then each replica
 * for what it has replayed (`pg_last_wal_replay_lsn()`), every `pollMs`. A replica's lag is how
 * long ago the primary was first seen past the position the replica has replayed (0 when it has
 * replayed all the primary had at the poll): an idle primary does not make a replica look late,
 * as `now() - pg_last_xact_replay_timestamp()` would. A replica further behind than `maxLagMs`,
 * or not answering, leaves the rotation; it comes back at the first poll that finds it close
 * enough again.
 *
 * Reads given to a replica run through a pool that falls back to the primary on any error that
 * says the replica cannot answer (connection refused or lost, shutting down, starting up, a
 * recovery conflict, a write attempted on it): the request is answered, never a 5xx, and the
 * replica leaves the rotation until the monitor finds it well.
 */

/** What a pg Pool offers that the set uses; the real one in production, a stub in unit tests. */
interface PoolLike {
  query(...args: unknown[]): Promise<unknown>;
  connect(): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'error', listener: () => void): unknown;
}

export interface ReplicaStatus {
  /** `host:port/database` of the replica (no credentials). */
  name: string;
  in_rotation: boolean;
  /** Milliseconds behind the primary at the last poll; null while it does not answer. */
  lag_ms: number | null;
  error?: string;
}

interface Replica<D> {
  name: string;
  pool: PoolLike;
  db: D;
  healthy: boolean;
  lagMs: number | null;
  error?: string;
  /** performance.now() at the start of the last poll that found it with everything the primary had then. */
  caughtUpAt: number;
}

/** `X/Y` (hex halves) as one number: positions in the WAL compare as 64-bit integers. */
export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** SQLSTATEs and driver messages after which a read is run on the primary instead. */
const FALLBACK_CODES = new Set(['25006', '40001', '57P01', '57P02', '57P03', '53300']);
export function replicaCannotAnswer(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && (FALLBACK_CODES.has(e.code) || e.code.startsWith('08') || e.code.startsWith('E'))) return true;
  return /terminat|timeout|ECONN|closed|not queryable|Connection/i.test(e.message ?? '');
}

export interface ReplicaOptions {
  maxLagMs: number;
  pollMs?: number;
  /** A query to a replica or the primary taking longer than this counts as not answering. */
  queryTimeoutMs?: number;
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** `D`: the drizzle handle of a replica (database.ts's Db; generic only to keep the two files free of a cycle). */
export class ReadReplicas<D = unknown> {
  private readonly replicas: Replica<D>[];
  /** (performance.now(), primary LSN) of recent polls, oldest first: what a replica's lag is read from. */
  private history: { at: number; lsn: bigint }[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private closed = false;
  readonly pollMs: number;

  /**
   * `primaryLsn` reads the primary's WAL position; `open(url)` makes a replica's pool and its
   * drizzle handle (the pool falling back to `primary` as described above).
   */
  constructor(
    urls: string[],
    private readonly primaryLsn: () => Promise<string>,
    open: (url: string, fallback: () => void) => { pool: PoolLike; db: D },
    private readonly opts: ReplicaOptions,
  ) {
    this.pollMs = opts.pollMs ?? 200;
    this.replicas = urls.map((url) => {
      // The fallback runs only once a query fails, by when `replica` is made.
      const opened = open(url, () => this.down(replica));
      const replica: Replica<D> = { name: nameOf(url), healthy: false, lagMs: null, caughtUpAt: -1, ...opened };
      return replica;
    });
  }

  /** Starts the monitor: the first poll right away (no replica is used before it answers). */
  start(): void {
    const tick = () => {
      if (this.closed) return;
      this.polling = this.poll().finally(() => {
        if (!this.closed) this.timer = setTimeout(tick, this.pollMs);
      });
    };
    tick();
  }

  /**
   * A replica in rotation (round robin), or undefined: read on the primary. With `since`
   * (performance.now()), only one that has replayed everything the primary had at some moment
   * after it (the answer cache's rule, products/store-service.ts).
   */
  pick(since?: number): D | undefined {
    const n = this.replicas.length;
    for (let i = 0; i < n; i++) {
      const r = this.replicas[(this.next + i) % n];
      if (!r.healthy || (since !== undefined && r.caughtUpAt <= since)) continue;
      this.next = (this.next + i + 1) % n;
      return r.db;
    }
    return undefined;
  }

  /** Milliseconds after a write during which its client reads on the primary: a replica in rotation has it by then. */
  get markerMs(): number {
    return this.opts.maxLagMs + 2 * this.pollMs;
  }

  status(): ReplicaStatus[] {
    return this.replicas.map((r) => ({
      name: r.name,
      in_rotation: r.healthy,
      lag_ms: r.lagMs === null ? null : Math.ceil(r.lagMs),
      ...(r.error ? { error: r.error } : {}),
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.polling?.catch(() => {});
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => {})));
  }

  /** A read on `r` failed as a replica fails: out of rotation until the monitor finds it well. */
  private down(r: Replica<D>): void {
    if (r.healthy) this.opts.log?.warn({ replica: r.name }, 'read replica left the rotation (it did not answer)');
    r.healthy = false;
  }

  private async poll(): Promise<void> {
    const started = performance.now();
    let primary: bigint;
    try {
      primary = lsnValue(await within(this.opts.queryTimeoutMs ?? 1_000, this.primaryLsn()));
    } catch {
      return; // the primary's own trouble shows in /ready; replicas keep their state
    }
    this.history.push({ at: started, lsn: primary });
    // Older samples matter only while some replica is that far behind.
    const horizon = started - Math.max(60_000, 10 * this.opts.maxLagMs);
    while (this.history.length > 1 && this.history[0].at < horizon) this.history.shift();
    await Promise.all(this.replicas.map((r) => this.check(r, started, primary)));
  }

  private async check(r: Replica<D>, started: number, primary: bigint): Promise<void> {
    try {
      const res = (await within(
        this.opts.queryTimeoutMs ?? 1_000,
        r.pool.query('select pg_last_wal_replay_lsn()::text as lsn'),
      )) as { rows: { lsn: string | null }[] };
      const text = res.rows[0]?.lsn;
      if (!text) throw new Error('not a streaming replica (pg_last_wal_replay_lsn() is null)');
      const replayed = lsnValue(text);
      const behind = this.history.find((h) => h.lsn > replayed);
      r.lagMs = behind ? performance.now() - behind.at : 0;
      if (replayed >= primary) r.caughtUpAt = started;
      r.error = undefined;
    } catch (err) {
      r.lagMs = null;
      r.error = String((err as Error).message ?? err).slice(0, 200);
    }
    const healthy = r.lagMs !== null && r.lagMs <= this.opts.maxLagMs;
    if (healthy !== r.healthy)
      this.opts.log?.[healthy ? 'info' : 'warn'](
        { replica: r.name, lag_ms: r.lagMs, error: r.error },
        healthy ? 'read replica joined the rotation' : 'read replica left the rotation',
      );
    r.healthy = healthy;
  }
}

function nameOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'replica';
  }
}

function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
