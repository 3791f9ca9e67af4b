import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './platform/config.ts';
import type { Database } from './platform/db/database.ts';
import type { App } from './platform/http/types.ts';
import type { Workers } from './workers.ts';

/**
 * SIGTERM / SIGINT: the instance turns unready (`/ready` 503) and answers new requests 503 with
 * Retry-After while the requests in flight finish and the workers stop (sends in flight get the
 * same drain time, then what they hold is handed back so another instance takes it at once,
 * without waiting for the lease); then the server closes and the database (PGlite: cleanly,
 * releasing the data-dir lock). A second signal exits at once.
 */
export function installShutdown(deps: {
  app: App;
  workers: Workers;
  database: Database;
  config: Config;
  log: FastifyBaseLogger;
}): void {
  const { app, workers, database, config, log } = deps;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      log.warn({ signal }, 'second signal: exiting without draining');
      process.exit(1);
    }
    closing = true;
    const started = Date.now();
    log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down: draining');
    try {
      const [drained] = await Promise.all([
        app.readiness.drain(config.shutdownDrainMs),
        workers.stop({ graceMs: config.shutdownDrainMs }),
      ]);
      if (!drained) log.warn('drain time over: closing with requests still in flight');
      await app.close();
      await database.close();
      log.info({ ms: Date.now() - started }, 'shut down');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}
