import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { Database } from './platform/db/database.ts';
import { SubscriberRegistry } from './platform/events/bus.ts';
import { Dispatcher } from './platform/events/dispatcher.ts';
import { outboxRetentionJob } from './platform/events/outbox-retention.ts';
import { auditRetentionJob } from './modules/audit/retention.ts';
import { jobFileRetentionJob } from './modules/bulk/file-retention.ts';
import type { ScheduledJob } from './platform/jobs/scheduled-job.ts';
import { statisticsJob } from './platform/jobs/statistics-job.ts';
import { pgliteCheckpointJob } from './platform/jobs/checkpoint-job.ts';
import { webhookFanOut } from './modules/webhooks/fan-out.ts';
import { WebhookSender } from './modules/webhooks/sender.ts';
import { cartAbandonmentJob } from './modules/checkout/abandonment.ts';
import type { PluginLifecycle } from './modules/plugins/lifecycle.ts';
import { pluginUpdatesJob } from './modules/plugins/updates.ts';
import { LicenseCallbackSender } from './modules/marketplace/licenses/callback-sender.ts';
import { payoutsJob } from './modules/marketplace/payouts/payout-job.ts';
import { licenseChecksJob } from './modules/federation/license-check.ts';
import { revocationsJob } from './modules/federation/revocations.ts';
import { notificationFanOut } from './modules/messaging/fan-out.ts';
import { NotificationSender } from './modules/messaging/sender.ts';
import { createProviders } from './platform/providers.ts';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { JobRunner } from './platform/jobs/runner.ts';
import { productImportJob } from './modules/bulk/import-job.ts';
import { productExportJob } from './modules/bulk/product-export.ts';
import { customerExportJob, orderExportJob } from './modules/bulk/desk-export.ts';
import { inventoryExportJob } from './modules/bulk/inventory-export.ts';

/** Background work of an instance: the event dispatcher, the webhook sender (and, as modules land, their jobs). */
export interface Workers {
  bus: SubscriberRegistry;
  dispatcher: Dispatcher;
  /** Not running in tests unless started: `await t.workers.webhooks.drain()` sends what is due. */
  webhooks: WebhookSender;
  /** Marketplace role: license-issued callbacks to shops (started only there; tests call `drain()`). */
  licenseCallbacks: LicenseCallbackSender;
  /** The shop's messages through notification providers (tests call `drain()`). */
  notifications: NotificationSender;
  /** Background jobs (imports, exports), one instance per job under a renewed lease (tests call `drain()`). */
  jobs: JobRunner;
  start(): Promise<void>;
  /** `graceMs`: how long sends in flight may take to finish (a shutdown's drain time); default none. */
  stop(opts?: { graceMs?: number }): Promise<void>;
}

/** `plugins`: the app's plugin lifecycle (`app.plugins`), whose host's bus carries the plugins' subscribers. */
export function createWorkers(deps: {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  config: Config;
  plugins?: PluginLifecycle;
}): Workers {
  const { database, clock, log, config } = deps;
  const bus = deps.plugins?.host.bus ?? new SubscriberRegistry();
  // Webhooks and license callbacks post to addresses others chose, on the same delivery terms.
  const outbound = {
    database,
    clock,
    log,
    timeoutMs: config.deliveryTimeoutMs,
    leaseMs: config.deliveryLeaseMs,
    encryptionKey: config.encryptionKey,
    blockPrivate: config.production && !config.webhookAllowPrivate,
  };
  const webhooks = new WebhookSender(outbound);
  const licenseCallbacks = new LicenseCallbackSender(outbound);
  // Plugins' notification providers (a shop without plugins has none: its messages are recorded not_sent).
  const providers = deps.plugins?.host.providers ?? createProviders(config.providerTimeoutMs);
  const notifications = new NotificationSender({
    database,
    clock,
    log,
    providers,
    encryptionKey: config.encryptionKey,
  });
  const jobRunner = new JobRunner({
    database,
    clock,
    log,
    owner: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
    leaseMs: config.jobLeaseMs,
  })
    .register(productImportJob)
    .register(productExportJob)
    .register(orderExportJob)
    .register(customerExportJob)
    .register(inventoryExportJob);
  // The fan-outs commit with the batch; a batch that queued deliveries then wakes the senders.
  const dispatcher = new Dispatcher({
    database,
    clock,
    log,
    bus,
    sinks: [webhookFanOut, notificationFanOut({ providers, encryptionKey: config.encryptionKey })],
    afterBatch: () => {
      webhooks.kick();
      notifications.kick();
    },
  });
  // Periodic jobs: every instance runs them; each job claims its rows with SKIP LOCKED, so overlap is harmless.
  const jobs: ScheduledJob[] = [
    { ...cartAbandonmentJob, everyMs: config.cartAbandonmentCheckMs },
    pluginUpdatesJob(config),
    licenseChecksJob(config, deps.plugins),
    revocationsJob(config, deps.plugins),
    statisticsJob(config.analyzeCheckMs),
    // PGlite has no autovacuum: the job vacuums the outbox itself after deleting.
    outboxRetentionJob({ days: config.outboxRetentionDays, vacuum: database.kind === 'pglite' }),
    auditRetentionJob(config.auditRetentionDays),
    jobFileRetentionJob(config.jobFilesRetentionDays),
    payoutsJob(config),
    // PostgreSQL has a checkpointer of its own; PGlite has none (checkpoint-job.ts).
    database.kind === 'pglite' ? pgliteCheckpointJob() : null,
  ].filter((job) => job !== null);
  let jobTimers: NodeJS.Timeout[] = [];
  const jobRuns = new Map<string, Promise<unknown>>(); // one run per job at a time; stop() waits for them
  const runJob = (job: ScheduledJob) => {
    if (jobRuns.has(job.name)) return;
    const run = job
      .run({ db: database.db, clock, log })
      .catch((err) => log.error({ err, job: job.name }, 'job failed'));
    jobRuns.set(
      job.name,
      run.finally(() => jobRuns.delete(job.name)),
    );
  };
  return {
    bus,
    dispatcher,
    webhooks,
    licenseCallbacks,
    notifications,
    jobs: jobRunner,
    start: async () => {
      // Each start only LISTENs and kicks its first pass (a kick before another has started is
      // dropped, and that one kicks itself), so they go together: one round trip, not five.
      await Promise.all([
        dispatcher.start(),
        webhooks.start(),
        notifications.start(),
        deps.plugins?.start(),
        config.role === 'shop' ? jobRunner.start() : undefined,
        config.role === 'marketplace' ? licenseCallbacks.start() : undefined,
      ]);
      jobTimers = jobs.map((job) => setInterval(() => runJob(job), job.everyMs).unref());
      for (const job of jobs) if (job.runAtStart) runJob(job);
    },
    stop: async (opts = {}) => {
      for (const timer of jobTimers) clearInterval(timer);
      await Promise.all(jobRuns.values());
      await deps.plugins?.stop();
      await dispatcher.stop();
      await Promise.all([
        jobRunner.stop(opts.graceMs),
        webhooks.stop(opts.graceMs),
        notifications.stop(opts.graceMs),
        licenseCallbacks.stop(opts.graceMs),
      ]);
    },
  };
}
