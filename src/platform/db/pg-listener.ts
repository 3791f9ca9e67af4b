import type pg from 'pg';

type Handler = (payload: string) => void;
type LostHandler = () => void;

/**
 * Every LISTEN of a process on one PostgreSQL connection (the outbox, the deliveries, the
 * plugins… each had a connection of its own: one more server process each, opened one after
 * the other at start-up). When the server drops it, it reconnects every second until it is back
 * and listens again on every channel; a NOTIFY sent meanwhile is lost, which the listeners'
 * own polling covers, and which `onLost` tells a listener that cannot poll (products/catalog-leases.ts).
 */
export class PgListener {
  private readonly channels = new Map<string, Set<Handler>>();
  private readonly lostHandlers = new Set<LostHandler>();
  /** The connection (being) made, and the channels it listens on. */
  private active: Connection | null = null;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly Client: typeof pg.Client,
    private readonly url: string,
    private readonly retryMs = 1000,
  ) {}

  /** `onLost`: the connection dropped, so NOTIFYs may have been missed until it listens again. */
  async listen(channel: string, onNotify: Handler, onLost?: LostHandler): Promise<() => Promise<void>> {
    const handlers = this.channels.get(channel) ?? new Set<Handler>();
    this.channels.set(channel, handlers);
    handlers.add(onNotify);
    if (onLost) this.lostHandlers.add(onLost);
    try {
      await this.listening(channel);
    } catch (err) {
      this.remove(channel, onNotify);
      if (onLost) this.lostHandlers.delete(onLost);
      throw err;
    }
    let done = false;
    return async () => {
      if (done) return;
      done = true;
      if (onLost) this.lostHandlers.delete(onLost);
      if (!this.remove(channel, onNotify)) return;
      if (!this.channels.size) return this.close();
      const active = this.active;
      if (active?.listening.delete(channel)) await inTurn(active, `unlisten ${quote(channel)}`).catch(() => {});
    };
  }

  /**
   * Runs a short statement on the listening connection, idle between NOTIFYs: it never waits
   * behind the pool's busy connections. Fails while the connection is down (or not yet made).
   */
  async run(text: string, values: unknown[]): Promise<void> {
    const active = this.active;
    if (!active) throw new Error('The listening connection is down');
    await active.ready;
    await inTurn(active, text, values);
  }

  /** Resolves once the connection listens on `channel` (connecting first if need be). */
  private async listening(channel: string): Promise<void> {
    this.active ??= this.connect();
    const active = this.active;
    await active.ready;
    if (active.listening.has(channel)) return;
    active.listening.add(channel);
    await inTurn(active, `listen ${quote(channel)}`);
  }

  private connect(): Connection {
    // Named, so an operator tells it apart in pg_stat_activity.
    const client = new this.Client({ connectionString: this.url, application_name: 'emporium listen' });
    const listening = new Set<string>();
    client.on('notification', (msg) => {
      for (const handler of this.channels.get(msg.channel) ?? []) handler(msg.payload ?? '');
    });
    client.on('error', () => this.lost(client));
    // A server that closes the connection in order (a shutdown) ends it without an error.
    client.on('end', () => this.lost(client));
    const ready = (async () => {
      try {
        await client.connect();
        if (this.active?.client !== client) {
          await client.end(); // closed meanwhile: nobody listens any more
          return;
        }
        // After a drop: every channel listened on before.
        for (const channel of this.channels.keys()) {
          listening.add(channel);
          await client.query(`listen ${quote(channel)}`);
        }
      } catch (err) {
        this.lost(client);
        throw err;
      }
    })();
    return { client, ready, listening, turn: Promise.resolve() };
  }

  /** Removes a handler; true when it was its channel's last. */
  private remove(channel: string, onNotify: Handler): boolean {
    const handlers = this.channels.get(channel);
    handlers?.delete(onNotify);
    if (handlers?.size) return false;
    this.channels.delete(channel);
    return true;
  }

  /** The connection failed or was dropped: a new one in a second, while anyone listens. */
  private lost(client: pg.Client): void {
    if (this.active?.client !== client) return;
    this.active = null;
    client.end().catch(() => {});
    for (const handler of this.lostHandlers) handler();
    if (this.retry || !this.channels.size) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.channels.size || this.active) return;
      this.active = this.connect();
      this.active.ready.catch(() => {}); // lost() schedules the next try
    }, this.retryMs);
    this.retry.unref();
  }

  /** Ends the connection (the database's close). */
  async close(): Promise<void> {
    this.channels.clear();
    this.lostHandlers.clear();
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const active = this.active;
    this.active = null;
    await active?.client.end().catch(() => {});
  }
}

/** The connection (being) made, the channels it listens on, and its last statement's turn. */
interface Connection {
  client: pg.Client;
  ready: Promise<void>;
  listening: Set<string>;
  turn: Promise<unknown>;
}

/**
 * Runs a statement after the connection's previous one: node-postgres queues a query sent while
 * another runs, but warns that it is deprecated (pg 9 drops it), and listens, unlistens and the
 * catalog lease's renewals come from unrelated callers.
 */
function inTurn(active: Connection, text: string, values?: unknown[]): Promise<unknown> {
  const run = active.turn.then(() => active.client.query(text, values));
  active.turn = run.catch(() => {}); // a failed statement does not stop the next
  return run;
}

const quote = (channel: string) => `"${channel.replace(/"/g, '')}"`;
