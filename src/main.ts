import { systemClock } from './platform/clock.ts';
import { loadConfig } from './platform/config.ts';
import { openDatabase } from './platform/db/database.ts';
import { codeCacheUse, saveCodeCache } from './platform/code-cache.ts';
import { preloadLogFormat } from './platform/log-format.ts';

/** Reads config, opens and migrates the database, runs first-start setup, listens. */
async function main() {
  // Milliseconds since the process started at the end of each phase, printed with "listening" (docs/operations.md,
  // "Start-up phases"). process.uptime, not performance.now: loading perf_hooks was a few ms of every start.
  const now = () => Math.round(process.uptime() * 1000);
  const started = now();
  const phases: Record<string, number> = { loaded: started };
  const phase = (name: string) => {
    phases[name] = now();
  };
  // Holds the event loop open until the server listens. Whenever the loop runs out of handles (while
  // start-up awaits only promises: PGlite's wasm compile, a dynamic import), Node waits for every
  // task on V8's worker threads before going on (NodePlatform::DrainTasks), and on PGlite those
  // include the optimising compile of its hot wasm functions: ~0.4 s of a start spent blocked on
  // work the server does not need yet. A referenced timer keeps the loop running instead.
  const holdLoop = setInterval(() => {}, 2 ** 30);
  // The read replicas' monitor logs through the app's logger once there is one.
  let appLog: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void } | undefined;
  const startLog = {
    warn: (obj: object, msg: string) => (appLog ? appLog.warn(obj, msg) : console.warn(msg)),
    info: (obj: object, msg: string) => appLog?.info(obj, msg),
  };
  const config = loadConfig();
  preloadLogFormat(config.logFormat);
  // The database opens (PGlite reads and compiles its wasm off this thread) while the app's code loads.
  const [database, { buildApp, bootstrap, createWorkers, installShutdown, newShopHint, serveBackups }] =
    await Promise.all([
      openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        connectTimeoutMs: config.databaseConnectTimeoutMs,
        pgliteSharedBuffers: config.pgliteSharedBuffers,
        readUrls: config.databaseReadUrls,
        replicas: { maxLagMs: config.readReplicaMaxLagMs, log: startLog },
      }),
      import('./server-parts.ts'),
    ]);
  phase('opened');
  // Migrating waits on the database (on PostgreSQL, its round trips) while building the app is
  // this thread's work: the two overlap. Nothing the build does reads a table.
  const [app] = await Promise.all([
    buildApp({ database, config, clock: systemClock }).finally(() => phase('built')),
    database.migrate().then(() => phase('migrated')),
  ]);
  appLog = app.log;
  app.readiness.migrated = true;
  // Instances started together on an empty database: one creates the first admin and key, the others find them.
  const report = await database.exclusive(() =>
    bootstrap({ db: database.db, clock: systemClock, log: app.log }, config),
  );
  phase('bootstrapped');
  // Installed plugins load before the server listens: their routes and providers are there for the first request.
  await app.plugins.start();
  phase('plugins');
  const workers = createWorkers({ database, clock: systemClock, log: app.log, config, plugins: app.plugins });
  // The embedded database is this process's alone: `emporium backup` asks it over a socket in DATA_DIR.
  if (database.kind === 'pglite')
    await serveBackups(database, config.dataDir).catch((err) =>
      app.log.warn(
        { err },
        'no backup socket (a data dir path too long for a Unix socket?): stop the server to back up',
      ),
    );
  installShutdown({ app, workers, database, config, log: app.log });
  await app.listen({ host: config.host, port: config.port });
  phase('listening');
  clearInterval(holdLoop);
  // The background workers (the event dispatcher, webhook and notification deliveries, the periodic
  // jobs, the statistics pass among them) start once the server answers: their first passes are
  // queries that on PGlite would hold up the first request's. /ready waits for them.
  await workers.start();
  phase('workers');
  app.readiness.workersRunning = true;

  const log = app.log;
  log.info(
    {
      role: config.role,
      db: database.kind,
      ms: now() - started,
      phases,
      codeCache: codeCacheUse(),
    },
    `Emporium ${config.role} listening on ${config.publicUrl}`,
  );
  log.info(`Admin panel: ${config.publicUrl}/app`);
  if (report.admin?.password) {
    // Printed once, on the start that created it; it is not stored anywhere in clear.
    log.warn(
      `First login for the admin panel (${config.publicUrl}/app): ${report.admin.email} / ${report.admin.password} (set ADMIN_EMAIL/ADMIN_PASSWORD to choose your own)`,
    );
  } else if (report.admin) {
    log.info(`Created admin ${report.admin.email} from ADMIN_EMAIL: sign in at ${config.publicUrl}/app`);
  }
  if (report.publishableKey) log.info(`Publishable key (x-publishable-api-key): ${report.publishableKey}`);
  if (report.signingKeyId)
    log.info(
      `Marketplace signing key ${report.signingKeyId} (public keys: ${config.publicUrl}/store/marketplace/keys)`,
    );
  log.info(`Admin login: POST ${config.publicUrl}/auth/user/emailpass · API docs: ${config.publicUrl}/docs`);
  if (report.newShop) log.info(newShopHint(config, report.publishableKey));
  // After the first start of a build (or of another Node), the next starts reuse the compiled code.
  saveCodeCache();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
