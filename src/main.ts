import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { systemClock } from './platform/clock.ts';
import { loadConfig } from './platform/config.ts';
import { openDatabase } from './platform/db/database.ts';
import { createWorkers } from './workers.ts';

/** Reads config, opens and migrates the database, runs first-start setup, listens. */
async function main() {
  const started = performance.now();
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const app = await buildApp({ database, config, clock: systemClock });
  const report = await bootstrap({ db: database.db, clock: systemClock, log: app.log }, config);
  const workers = createWorkers({ database, clock: systemClock, log: app.log, config, plugins: app.plugins });
  await workers.start();
  await app.listen({ host: config.host, port: config.port });

  const log = app.log;
  log.info({ role: config.role, db: database.kind, ms: Math.round(performance.now() - started) }, `Emporium ${config.role} listening on ${config.publicUrl}`);
  if (report.admin?.password) {
    // Printed once, on the start that created it; it is not stored anywhere in clear.
    log.warn(`Created admin ${report.admin.email} with password ${report.admin.password} (set ADMIN_EMAIL/ADMIN_PASSWORD to choose your own)`);
  } else if (report.admin) {
    log.info(`Created admin ${report.admin.email} from ADMIN_EMAIL`);
  }
  if (report.publishableKey) log.info(`Publishable key (x-publishable-api-key): ${report.publishableKey}`);
  if (report.signingKeyId) log.info(`Marketplace signing key ${report.signingKeyId} (public keys: ${config.publicUrl}/store/marketplace/keys)`);
  log.info(`Admin login: POST ${config.publicUrl}/auth/user/emailpass · API docs: ${config.publicUrl}/docs`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    await app.close();
    await workers.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
