import type { Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import { marketplaceClient } from '../federation/client.ts';
import { instanceIdFor } from '../federation/instance-id.ts';
import { createNotification } from '../notifications/service.ts';
import * as q from './queries.ts';

export interface UpdateEntry {
  /** The installed plugin row's id (admin form of the update entry). */
  id: string;
  current: string;
  latest: string;
  changelog_url: string;
}

interface RemoteUpdates {
  updates?: { marketplace_id?: unknown; current?: unknown; latest?: unknown; changelog_url?: unknown }[];
}

/**
 * Newer versions of the federated plugins, from the marketplace's `/updates` (it receives only
 * marketplace ids and versions). Local plugins and an unfederated shop have none. Marketplace
 * down → 502.
 */
export async function checkUpdates(
  ctx: Ctx,
  config: Config,
): Promise<{ updates: (UpdateEntry & { row: q.PluginRow })[] }> {
  const client = marketplaceClient(config.federation);
  if (!client) return { updates: [] };
  const rows = (await q.listAllPluginRows(ctx.db)).filter(
    (r) => r.source === 'federation' && r.status !== 'installing' && r.status !== 'failed',
  );
  if (!rows.length) return { updates: [] };
  const byMid = new Map(rows.map((r) => [r.marketplace_id, r]));
  const versions = JSON.stringify(Object.fromEntries(rows.map((r) => [r.marketplace_id, r.version])));
  // The instance token places this shop in or out of staged rollouts (nothing else is sent).
  const instance_id = await instanceIdFor(ctx, config.encryptionKey, client.url);
  const remote = await client.getJson<RemoteUpdates>('/store/marketplace/updates', { versions, instance_id });
  const updates = [];
  for (const u of remote.updates ?? []) {
    const row = typeof u.marketplace_id === 'string' ? byMid.get(u.marketplace_id) : undefined;
    if (!row || typeof u.latest !== 'string') continue;
    // A version this shop rolled back from (it crash-looped here) is not offered again.
    if (row.held_versions.includes(u.latest)) continue;
    updates.push({
      id: row.id,
      current: row.version,
      latest: u.latest,
      changelog_url: typeof u.changelog_url === 'string' ? u.changelog_url : '',
      row,
    });
  }
  return { updates };
}

/**
 * The periodic job: one admin notification per newly available version (the dedupe key makes a
 * version notify once, however often the job runs and on however many instances).
 */
export async function notifyPluginUpdates(ctx: Ctx, config: Config): Promise<number> {
  const { updates } = await checkUpdates(ctx, config);
  for (const u of updates) {
    const name = u.row.manifest?.name ?? u.row.marketplace_id;
    await createNotification(ctx, {
      type: 'plugin.update_available',
      title: `Update available: ${name} ${u.latest}`,
      message: `${u.row.marketplace_id} ${u.latest} is available (installed: ${u.current}). Changelog: ${u.changelog_url}. Update it from the plugins page.`,
      data: {
        plugin_id: u.id,
        marketplace_id: u.row.marketplace_id,
        current: u.current,
        latest: u.latest,
        changelog_url: u.changelog_url,
      },
      dedupeKey: `plugin-update:${u.row.marketplace_id}@${u.latest}`,
    });
  }
  return updates.length;
}

/** Every 6 hours; a marketplace that is down is logged and tried again next time. */
export function pluginUpdatesJob(config: Config) {
  return {
    name: 'plugin-updates',
    everyMs: 6 * 60 * 60 * 1000,
    run: (ctx: Ctx) => notifyPluginUpdates(ctx, config),
  };
}
