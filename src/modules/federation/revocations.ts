import { inTx, type Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import { emit } from '../../platform/events/emit.ts';
import type { ScheduledJob } from '../../platform/jobs/scheduled-job.ts';
import { versionSortKey } from '../../plugin-package/versions.ts';
import { createNotification } from '../notifications/service.ts';
import type { PluginLifecycle } from '../plugins/lifecycle.ts';
import * as pq from '../plugins/queries.ts';
import type { PluginRevocation } from '../plugins/tables.ts';
import { pluginJson } from '../plugins/view.ts';
import { marketplaceClient, MarketplaceError } from './client.ts';
import { fetchRevocationList, RevocationListRefused, type RevocationEntry } from './revocation-list.ts';
import * as q from './queries.ts';
import { pollLogHead } from './log-check.ts';
import { noteRefusal } from './refusal-note.ts';

/** Prefix of `error` on rows a critical revocation stopped. */
export const REVOKED_ERROR_PREFIX = 'Revoked by the marketplace: ';

export type PollResult =
  | { status: 'not_due' | 'not_federated' | 'unreachable' }
  | { status: 'refused'; reason: string }
  | { status: 'accepted'; sequence: number; applied: number };

/** The entry naming this installed plugin's version (a whole-item entry names every version), newest first. */
function entryFor(row: pq.PluginRow, entries: RevocationEntry[]): RevocationEntry | undefined {
  const key = versionSortKey(row.version);
  return entries
    .filter(
      (e) =>
        e.marketplace_id === row.marketplace_id &&
        (e.kind === 'item' || (e.kind === 'version' && e.version !== null && versionSortKey(e.version) === key)),
    )
    .sort((a, b) => b.sequence - a.sequence)[0];
}

/**
 * Applies one entry to one plugin, with its event and notification in the same transaction:
 * `critical` disables an installed plugin (the caller then unloads it: process and routes),
 * `warning` leaves it running. Each entry applies once (its sequence is kept on the row).
 */
async function applyEntry(ctx: Ctx, row: pq.PluginRow, entry: RevocationEntry): Promise<boolean> {
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const revocation: PluginRevocation = {
      severity: entry.severity,
      reason: entry.reason,
      revoked_at: entry.revoked_at,
      sequence: entry.sequence,
    };
    const stop = entry.severity === 'critical' && row.status === 'installed';
    const done = stop
      ? await pq.finishPipeline(tctx.tx, row.id, 'installed', {
          status: 'disabled',
          error: `${REVOKED_ERROR_PREFIX}${entry.reason}`,
          revocation,
          updated_at: now,
        })
      : await pq.updatePluginRow(tctx.tx, row.id, { revocation, updated_at: now });
    if (!done) return false;
    await emit(tctx, 'plugin.revoked', { ...pluginJson(done), severity: entry.severity, reason: entry.reason });
    const name = row.manifest?.name ?? row.marketplace_id;
    await createNotification(tctx, {
      type: 'plugin.revoked',
      title: stop ? `${name} stopped: revoked by the marketplace` : `${name} was revoked by the marketplace`,
      message: stop
        ? `${row.marketplace_id} ${row.version} was revoked as critical (${entry.reason}) and has been stopped. Uninstall it or update to a version that is not revoked.`
        : `${row.marketplace_id} ${row.version} was revoked as a warning (${entry.reason}). It keeps running; update or uninstall it.`,
      data: { plugin_id: row.id, marketplace_id: row.marketplace_id, severity: entry.severity, reason: entry.reason },
      dedupeKey: `plugin.revoked:${row.id}:${entry.sequence}`,
    });
    if (stop) await pq.notifyPluginChanged(tctx.tx, row.id);
    return true;
  });
}

function noteListRefusal(ctx: Ctx, url: string, reason: string): Promise<void> {
  return noteRefusal(ctx, url, reason, {
    type: 'marketplace.revocations_refused',
    title: 'Marketplace revocation list refused',
    logLine: 'revocation list refused',
    message: `The revocation list from ${url} was refused: ${reason}. Revoked plugins may keep running until a valid list arrives.`,
    save: (tx, now) => q.saveRefusal(tx, url, reason, now),
  });
}

/**
 * One poll of the marketplace's revocation list (`force`: at start, whatever the last fetch).
 * Due every `revocationPollMs` on the app clock; a refused list is noted (state, log,
 * notification) and nothing of it is applied.
 */
export async function pollRevocations(
  ctx: Ctx,
  config: Config,
  plugins?: PluginLifecycle,
  force = false,
): Promise<PollResult> {
  const client = marketplaceClient(config.federation);
  if (!client) return { status: 'not_federated' };
  const state = await q.findRevocationList(ctx.db, client.url);
  const last = Math.max(state?.fetched_at?.getTime() ?? 0, state?.refused_at?.getTime() ?? 0);
  if (!force && ctx.clock.now().getTime() - last < client.fed.revocationPollMs) return { status: 'not_due' };
  let list: Awaited<ReturnType<typeof fetchRevocationList>>;
  try {
    list = await fetchRevocationList(ctx, client, state?.sequence ?? 0, state?.revoked_keys ?? []);
  } catch (err) {
    if (err instanceof MarketplaceError) {
      ctx.log.warn({ err: err.message }, 'revocation list unreachable; the last accepted one stays in force');
      return { status: 'unreachable' };
    }
    if (!(err instanceof RevocationListRefused)) throw err;
    await noteListRefusal(ctx, client.url, err.message);
    return { status: 'refused', reason: err.message };
  }
  const revokedKeys = list.revocations.filter((e) => e.kind === 'key' && e.key_id).map((e) => e.key_id!);
  await q.saveAcceptedList(ctx.db, client.url, list.sequence, revokedKeys, ctx.clock.now());
  let applied = 0;
  for (const row of await pq.listPluginRowsByStatus(ctx.db, ['installed', 'disabled', 'failed'])) {
    const entry = entryFor(row, list.revocations);
    // Updated to a version the list does not name: the flag goes with the old version.
    if (!entry && row.revocation) await pq.updatePluginRow(ctx.db, row.id, { revocation: null });
    if (!entry || row.revocation?.sequence === entry.sequence) continue;
    if (!(await applyEntry(ctx, row, entry))) continue;
    applied++;
    if (entry.severity === 'critical') await plugins?.reconcile(row.id);
  }
  return { status: 'accepted', sequence: list.sequence, applied };
}

/**
 * Ticks every minute (or the poll interval, if shorter) and fetches when due on the app clock, so
 * a test moves the clock instead of waiting; the first tick of a process always fetches.
 */
export function revocationsJob(config: Config, plugins?: PluginLifecycle): ScheduledJob | null {
  if (!config.federation) return null;
  let started = false;
  return {
    name: 'plugin-revocations',
    everyMs: Math.min(60_000, config.federation.revocationPollMs),
    runAtStart: true,
    run: async (ctx: Ctx) => {
      const force = !started;
      started = true;
      const result = await pollRevocations(ctx, config, plugins, force);
      // The log's signed tree head on the same schedule: a fork or a rewritten history is reported.
      if (result.status !== 'not_due' && result.status !== 'not_federated') await pollLogHead(ctx, config);
      return result.status === 'accepted' ? result.applied : 0;
    },
  };
}
