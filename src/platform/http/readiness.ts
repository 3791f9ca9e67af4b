import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/database.ts';
import { appError, ErrorBody } from './errors.ts';
import type { App } from './types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Counted among the requests in flight (readiness.ts): a flag, not a WeakSet, which costs GC work per request. */
    inFlight: boolean;
  }
  interface FastifyInstance {
    /** The instance's readiness and shutdown drain (set up in app.ts, driven by main.ts). */
    readiness: Readiness;
  }
}

/** Seconds a client (or load balancer) is told to wait before it retries on another instance. */
const RETRY_AFTER = '5';

/**
 * What `GET /ready` reports and what a shutdown changes. main.ts marks the migrations and the
 * workers once they are up; `drain()` (SIGTERM) turns the instance unready, answers new
 * requests 503 with Retry-After, and resolves when the requests in flight have finished.
 */
export class Readiness {
  migrated = false;
  workersRunning = false;
  private draining = false;
  private inFlight = 0;
  private idle?: () => void;

  get isDraining(): boolean {
    return this.draining;
  }

  /** Resolves once no request is in flight, or after `maxMs`, whichever is first; false on timeout. */
  drain(maxMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), maxMs);
      this.idle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  /** A request answered outside Fastify (repeat-reads.ts) that has to wait: drain waits for it too. */
  begin(): void {
    this.inFlight++;
  }

  end(): void {
    this.inFlight--;
    if (this.inFlight === 0) this.idle?.();
  }

  /** Installs the accounting hooks and the `/ready` route on the root app (before the surfaces). */
  register(app: App, database: Database): void {
    app.decorateRequest('inFlight', false);
    // Callbacks, not async hooks: every request runs these, and they never wait.
    app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, next) => {
      if (this.draining && req.url !== '/health') {
        reply.header('connection', 'close');
        throw appError('shutting_down', undefined, { headers: { 'retry-after': RETRY_AFTER } });
      }
      this.inFlight++;
      req.inFlight = true;
      next();
    });
    const finished = (req: FastifyRequest) => {
      if (!req.inFlight) return;
      req.inFlight = false;
      this.end();
    };
    app.addHook('onResponse', (req, _reply, next) => {
      finished(req);
      next();
    });
    app.addHook('onRequestAbort', async (req) => finished(req));

    app.get(
      '/ready',
      {
        schema: {
          tags: ['meta'],
          summary: 'Readiness: database reachable, migrations applied, workers running, not shutting down',
          response: {
            200: Type.Object({
              status: Type.Literal('ready'),
              replicas: Type.Optional(
                Type.Array(
                  Type.Object({
                    name: Type.String(),
                    in_rotation: Type.Boolean(),
                    lag_ms: Type.Union([Type.Integer(), Type.Null()]),
                    error: Type.Optional(Type.String()),
                  }),
                  { description: 'DATABASE_READ_URL: each read replica, its lag, and whether reads go to it' },
                ),
              ),
            }),
            503: ErrorBody,
          },
        },
      },
      async () => {
        const problems: string[] = [];
        if (this.draining) problems.push('shutting down');
        if (!this.migrated) problems.push('migrations not applied');
        if (!this.workersRunning) problems.push('workers not running');
        if (!(await reachable(database))) problems.push('database unreachable');
        if (problems.length)
          throw appError('not_ready', { problems: problems.join(', ') }, { headers: { 'retry-after': RETRY_AFTER } });
        // A replica out of rotation does not make the instance unready: its reads go to the primary.
        const replicas = database.replicas?.status();
        return replicas ? { status: 'ready' as const, replicas } : { status: 'ready' as const };
      },
    );
  }
}

/** `select 1` within 2 s: a database that hangs is as unready as one that refuses. */
async function reachable(database: Database): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), 2_000);
  });
  try {
    return await Promise.race([database.db.execute(sql`select 1`).then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
