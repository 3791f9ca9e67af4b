import { inTx, type Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { emit } from '../../platform/events/emit.ts';
import { createNotification } from '../notifications/service.ts';
import type { PluginLifecycle } from '../plugins/lifecycle.ts';
import type { LicenseCheck } from '../plugins/runtime.ts';
import * as pq from '../plugins/queries.ts';
import { pluginJson } from '../plugins/view.ts';
import { marketplaceClient, MarketplaceError } from './client.ts';
import { instanceIdFor } from './instance-id.ts';
import * as q from './queries.ts';

/** Marketplace unreachable: the last successful verification holds this long, so an outage of days never disables a paid plugin. */
export const LICENSE_GRACE_MS = 7 * 24 * 3_600_000;
/** Prefix of `error` on rows this module disabled: only those are re-enabled by a later pass. */
export const LICENSE_ERROR_PREFIX = 'License check failed: ';

type Verdict = { ok: true } | { ok: false; reason: string };

const WHAT_TO_DO: Record<string, string> = {
  revoked: 'The vendor revoked this license: contact them or buy a new one from the marketplace.',
  expired: 'The license expired: renew it on the marketplace; the plugin comes back on the next check.',
  wrong_instance: 'The license belongs to another shop instance: buy one for this shop.',
  unknown: 'The marketplace does not know this license: reinstall the plugin with the key from your purchase e-mail.',
  unreachable:
    'The marketplace could not be reached for 7 days: check SERVICE_FEDERATION_URL and the network; the plugin comes back on the next successful check.',
};

/**
 * Verifies one licensed plugin against the marketplace (it receives the license key, the
 * marketplace id and the instance token, nothing else). A valid answer is cached; when the
 * marketplace cannot be reached the cached answer holds for 7 days on the app clock.
 */
export async function verifyPluginLicense(ctx: Ctx, config: Config, row: pq.PluginRow): Promise<Verdict> {
  if (!row.license_key) return { ok: true };
  const client = marketplaceClient(config.federation);
  if (!client) return { ok: false, reason: 'unreachable (no marketplace is configured: SERVICE_FEDERATION_URL)' };
  const now = ctx.clock.now();
  try {
    const answer = await client.postJson<Record<string, unknown>>('/store/marketplace/license/verify', {
      license_key: decryptSecret(config.encryptionKey, row.license_key),
      marketplace_id: row.marketplace_id,
      instance_id: await instanceIdFor(ctx, config.encryptionKey, client.url),
    });
    if (answer.valid !== true)
      return { ok: false, reason: typeof answer.reason === 'string' ? answer.reason : 'unknown' };
    await q.upsertLicenseCheck(ctx.db, {
      plugin_id: row.id,
      last_verified_at: now,
      last_result: answer,
      grace_until: new Date(now.getTime() + LICENSE_GRACE_MS),
    });
    return { ok: true };
  } catch (err) {
    // A refusal of the request itself (4xx) is no outage; anything else is "unreachable".
    if (
      !(err instanceof MarketplaceError) ||
      (err.upstreamStatus !== undefined && err.upstreamStatus < 500 && err.upstreamStatus !== 429)
    )
      throw err;
    const cached = await q.findLicenseCheck(ctx.db, row.id);
    const licenseEnd =
      typeof cached?.last_result.expires_at === 'string' ? Date.parse(cached.last_result.expires_at) : Infinity;
    if (cached && cached.grace_until.getTime() > now.getTime() && licenseEnd > now.getTime()) {
      ctx.log.warn(
        { plugin: row.marketplace_id, err: err.message, grace_until: cached.grace_until },
        'marketplace unreachable; license kept on its last verification',
      );
      return { ok: true };
    }
    return { ok: false, reason: 'unreachable' };
  }
}

/** Disables an installed plugin for a license reason: status, event and notification commit together. */
async function disableForLicense(ctx: Ctx, row: pq.PluginRow, reason: string): Promise<void> {
  await inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const done = await pq.finishPipeline(tctx.tx, row.id, 'installed', {
      status: 'disabled',
      error: `${LICENSE_ERROR_PREFIX}${reason}`,
      updated_at: now,
    });
    if (!done) return;
    await emit(tctx, 'plugin.license_failed', { ...pluginJson(done), reason });
    const name = row.manifest?.name ?? row.marketplace_id;
    await createNotification(tctx, {
      type: 'plugin.license_failed',
      title: `${name} disabled: license ${reason}`,
      message: `${row.marketplace_id} was disabled because its license check failed (${reason}). ${WHAT_TO_DO[reason] ?? WHAT_TO_DO.unknown}`,
      data: { plugin_id: row.id, marketplace_id: row.marketplace_id, reason },
      dedupeKey: `plugin.license_failed:${row.id}:${reason}:${now.toISOString().slice(0, 10)}`,
    });
    await pq.notifyPluginChanged(tctx.tx, row.id);
  });
}

async function reEnable(ctx: Ctx, row: pq.PluginRow): Promise<boolean> {
  return inTx(ctx, async (tctx) => {
    const done = await pq.finishPipeline(tctx.tx, row.id, 'disabled', {
      status: 'installed',
      error: null,
      updated_at: tctx.clock.now(),
    });
    if (done) await pq.notifyPluginChanged(tctx.tx, row.id);
    return !!done;
  });
}

/**
 * The plugins' license seam (PluginLifecycle.licenseCheck), called before licensed code loads (every
 * start, another instance's install). A failing installed plugin is disabled here, with its
 * event and notification; during an install the pipeline just fails the row.
 */
export function licenseCheckFor(config: Config): LicenseCheck {
  return async (ctx, row) => {
    const verdict = await verifyPluginLicense(ctx, config, row);
    if (!verdict.ok && row.status === 'installed') await disableForLicense(ctx, row, verdict.reason);
    return verdict;
  };
}

/**
 * The daily pass: every licensed plugin that is installed, or that this module disabled, is
 * checked; failures disable it, a pass re-enables it, and this instance loads or unloads at once
 * (the others follow through NOTIFY). Returns how many rows changed.
 */
export async function runLicenseChecks(ctx: Ctx, config: Config, plugins?: PluginLifecycle): Promise<number> {
  const rows = (await pq.listPluginRowsByStatus(ctx.db, ['installed', 'disabled'])).filter(
    (r) => r.license_key && (r.status === 'installed' || r.error?.startsWith(LICENSE_ERROR_PREFIX)),
  );
  let changed = 0;
  for (const row of rows) {
    const verdict = await verifyPluginLicense(ctx, config, row);
    if (!verdict.ok && row.status === 'installed') {
      await disableForLicense(ctx, row, verdict.reason);
      changed++;
    } else if (verdict.ok && row.status === 'disabled' && (await reEnable(ctx, row))) {
      changed++;
    } else continue;
    await plugins?.reconcile(row.id);
  }
  return changed;
}

/** Once a day on every instance (a license verified twice is harmless). */
export function licenseChecksJob(config: Config, plugins?: PluginLifecycle) {
  // Also run once at start: loading checks installed plugins, this pass brings back ones a license check disabled.
  return {
    name: 'plugin-licenses',
    everyMs: 24 * 3_600_000,
    runAtStart: true,
    run: (ctx: Ctx) => runLicenseChecks(ctx, config, plugins),
  };
}
