import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { Database } from './platform/db/database.ts';
import { SubscriberRegistry } from './platform/events/bus.ts';
import { Dispatcher } from './platform/events/dispatcher.ts';
import { webhookFanOut } from './modules/webhooks/fan-out.ts';
import { WebhookSender } from './modules/webhooks/sender.ts';
import { cartAbandonmentJob } from './modules/carts/abandonment.ts';
import type { PluginHost } from './modules/plugins/host.ts';
import { pluginUpdatesJob } from './modules/plugins/updates.ts';
import { LicenceCallbackSender } from './modules/marketplace/callback-sender.ts';
import { licenceChecksJob } from './modules/federation/licence-check.ts';

/** Background work of an instance: the event dispatcher, the webhook sender (and, as modules land, their jobs). */
export interface Workers {
  bus: SubscriberRegistry;
  dispatcher: Dispatcher;
  /** Not running in tests unless started: `await t.workers.webhooks.drain()` sends what is due. */
  webhooks: WebhookSender;
  /** Marketplace role: license-issued callbacks to shops (started only there; tests call `drain()`). */
  licenceCallbacks: LicenceCallbackSender;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** `plugins`: the app's plugin host (`app.plugins`), whose bus carries the plugins' subscribers. */
export function createWorkers(deps: { database: Database; clock: Clock; log: FastifyBaseLogger; config: Config; plugins?: PluginHost }): Workers {
  const { database, clock, log, config } = deps;
  const bus = deps.plugins?.bus ?? new SubscriberRegistry();
  const webhooks = new WebhookSender({
    database,
    clock,
    log,
    encryptionKey: config.encryptionKey,
    blockPrivate: config.production && !config.webhookAllowPrivate,
  });
  const licenceCallbacks = new LicenceCallbackSender({ database, clock, log, encryptionKey: config.encryptionKey, blockPrivate: config.production && !config.webhookAllowPrivate });
  // The fan-out commits with the batch; the kick then sends those deliveries at once.
  const dispatcher = new Dispatcher({ database, clock, log, bus, sinks: [webhookFanOut], afterBatch: () => webhooks.kick() });
  // Periodic jobs: every instance runs them; each job claims its rows with SKIP LOCKED, so overlap is harmless.
  const jobs = [cartAbandonmentJob, pluginUpdatesJob(config), licenceChecksJob(config, deps.plugins)];
  let jobTimers: NodeJS.Timeout[] = [];
  const jobRuns = new Map<string, Promise<unknown>>(); // one run per job at a time; stop() waits for them
  const runJob = (job: (typeof jobs)[number]) => {
    if (jobRuns.has(job.name)) return;
    const run = job.run({ db: database.db, clock, log }).catch((err) => log.error({ err, job: job.name }, 'job failed'));
    jobRuns.set(job.name, run.finally(() => jobRuns.delete(job.name)));
  };
  return {
    bus,
    dispatcher,
    webhooks,
    licenceCallbacks,
    start: async () => {
      await dispatcher.start();
      webhooks.start();
      await deps.plugins?.start();
      if (config.role === 'marketplace') await licenceCallbacks.start();
      jobTimers = jobs.map((job) => setInterval(() => runJob(job), job.everyMs).unref());
      for (const job of jobs) if ('runAtStart' in job && job.runAtStart) runJob(job);
    },
    stop: async () => {
      for (const timer of jobTimers) clearInterval(timer);
      await Promise.all(jobRuns.values());
      await deps.plugins?.stop();
      await dispatcher.stop();
      await webhooks.stop();
      await licenceCallbacks.stop();
    },
  };
}
