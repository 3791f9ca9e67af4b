import { inTx } from '../../../platform/context.ts';
import { emit } from '../../../platform/events/emit.ts';
import { createNotification } from '../../notifications/service.ts';
import type { LoadedPlugin } from '../host.ts';
import { stageStoredPlugin } from '../load-plugin.ts';
import * as q from '../queries.ts';
import type { PluginRuntime } from '../runtime.ts';
import { pluginJson } from '../view.ts';
import { rollBackPlugin, shouldRollBack } from './rollback.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A live plugin's process died (crash, out of memory, killed for blocking). The crash policy
 * decides: restart it after its delay (a fresh process and a fresh register(ctx)), or, past the
 * limit, set the plugin failed with the reason, emit `plugin.failed` and notify the admins. Until
 * then its routes answer 503 and its events wait for the dispatcher's retry; the shop goes on.
 */
export async function recoverPlugin(rt: PluginRuntime, dead: LoadedPlugin, reason: string): Promise<void> {
  const health = rt.host.health.of(dead.rowId);
  health.crashes++;
  health.lastCrash = { at: rt.deps.clock.now(), reason };
  const verdict = health.policy.record(reason);
  rt.deps.log.error({ plugin: dead.manifestId, reason, verdict }, 'plugin process died');
  // Crash-looping right after an update: back to the version before, instead of restarting or failing.
  const current = await q.findPlugin(rt.ctx.db, dead.rowId);
  if (shouldRollBack(rt, current, health.policy.recent)) return rollBackPlugin(rt, dead, current!, reason);
  if (!verdict.restart) return failPlugin(rt, dead, verdict.reason);
  await wait(verdict.delayMs);
  let failure: string | undefined;
  await rt.exclusive(async () => {
    if (rt.host.isLoaded(dead.manifestId, dead.rowId) !== dead) return; // swapped or unloaded meanwhile
    const row = await q.findPlugin(rt.ctx.db, dead.rowId);
    if (!row || (row.status !== 'installed' && row.status !== 'updating')) return;
    try {
      rt.host.activate(await stageStoredPlugin(rt, row));
      health.restarts++;
    } catch (err) {
      failure = (err as Error).message; // a restart that cannot even load is one more crash
    }
  });
  if (failure) await recoverPlugin(rt, dead, failure);
}

async function failPlugin(rt: PluginRuntime, dead: LoadedPlugin, reason: string): Promise<void> {
  await rt.exclusive(async () => {
    if (rt.host.isLoaded(dead.manifestId, dead.rowId) === dead) rt.host.unload(dead.manifestId);
  });
  await inTx(rt.ctx, async (tctx) => {
    const done = await q.finishPipeline(tctx.tx, dead.rowId, 'installed', {
      status: 'failed',
      error: reason,
      updated_at: tctx.clock.now(),
    });
    if (!done) return;
    await emit(tctx, 'plugin.failed', { ...pluginJson(done), reason });
    const name = done.manifest?.name ?? done.marketplace_id;
    await createNotification(tctx, {
      type: 'plugin.failed',
      title: `${name} stopped: it kept crashing`,
      message: `${done.marketplace_id} was set failed and its code no longer runs: ${reason}. Its routes and event handlers are off; the shop goes on. Fix or update the plugin, then reinstall it.`,
      data: { plugin_id: done.id, marketplace_id: done.marketplace_id, reason },
      dedupeKey: `plugin.failed:${done.id}:${tctx.clock.now().toISOString()}`,
    });
    await q.notifyPluginChanged(tctx.tx, done.id);
  });
}
