import { createHash } from 'node:crypto';
import semver from 'semver';
import { inTx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { PACKAGE_VERSION } from '../../platform/package-root.ts';
import { safeEntryPath, type PluginPackage } from '../../plugin-package/read-package.ts';
import { compareVersions } from '../../plugin-package/versions.ts';
import { extraRights, grantedRights, rightsOf, type Rights } from '../../plugin-package/permissions.ts';
import type { LoadedPlugin } from './host.ts';
import { stagePlugin } from './load-plugin.ts';
import { applyPluginMigrations } from './migrations.ts';
import * as q from './queries.ts';
import type { PluginRuntime } from './runtime.ts';
import type { PreviousRelease } from './tables.ts';
import { fetchVerifiedPackage } from './sources.ts';
import { pluginJson } from './view.ts';

const ENGINE_VERSION = PACKAGE_VERSION;
/** How long one instance owns a pipeline before another may consider it crashed and resume it. */
export const PIPELINE_LEASE_MS = 5 * 60 * 1000;
/** A row whose pipeline was interrupted this often (it may be what crashes the process) gives up. */
const MAX_ATTEMPTS = 3;

/** The package must be the item and version asked for, for this version of Emporium. */
function checkPackage(pkg: PluginPackage, row: q.PluginRow, version: string): void {
  const m = pkg.manifest;
  if (`@${m.vendor}/${m.id}` !== row.marketplace_id)
    throw new Error(`Package is @${m.vendor}/${m.id}, not ${row.marketplace_id}`);
  if (compareVersions(m.version, version) !== 0) throw new Error(`Package is version ${m.version}, not ${version}`);
  if (!semver.satisfies(ENGINE_VERSION, m.engine ?? '*', { includePrerelease: true })) {
    throw new Error(`Plugin requires Emporium ${m.engine}; this is ${ENGINE_VERSION}`);
  }
}

function previousRelease(row: q.PluginRow, at: Date): PreviousRelease {
  return {
    version: row.version,
    artifact_sha256: row.artifact_sha256,
    manifest: row.manifest,
    admin_sha256: row.admin_sha256,
    granted_permissions: row.granted_permissions,
    config: row.config,
    replaced_at: at.toISOString(),
  };
}

function sha256Of(bytes: Buffer | undefined): string | null {
  return bytes ? createHash('sha256').update(bytes).digest('hex') : null;
}

/**
 * The install and update pipeline, for one row, in the background:
 * resolve → download → verify (size, sha256, signature) → check manifest and engine → license →
 * store the artifact → migrations → load and register (staged) → commit the status and event →
 * make the new code live. Nothing of the plugin runs before the checks pass; any failure leaves
 * the row `failed` (install) or back on its running version (update), with the reason in `error`.
 */
export async function runPipeline(rt: PluginRuntime, id: string, opts: { force?: boolean } = {}): Promise<void> {
  const { ctx, host } = rt;
  const now = ctx.clock.now();
  const row = await q.claimPipeline(ctx.db, id, now, new Date(now.getTime() + PIPELINE_LEASE_MS), opts.force);
  if (!row) return; // another instance has it, or it was uninstalled meanwhile
  const updating = row.status === 'updating';
  const version = updating ? row.target_version! : row.version;
  let staged: LoadedPlugin | undefined;
  try {
    if (row.attempts > MAX_ATTEMPTS)
      throw new Error(`Interrupted ${MAX_ATTEMPTS} times (the process stopped while installing); giving up`);
    const { pkg, bytes, source } = await fetchVerifiedPackage(ctx, rt.deps.config, row, version);
    checkPackage(pkg, row, version);
    if (row.license_key) {
      const verdict = await rt.licenseCheck(ctx, row);
      if (!verdict.ok) throw new Error(`License check failed: ${verdict.reason}`);
    }
    const rights = rightsOf(pkg.manifest);
    if (updating) {
      // More rights than the operator granted (its admin extension's included): nothing of the new
      // version runs (not even its migrations) until they approve; the running version goes on.
      const extra = extraRights(rights, grantedRights(row.granted_permissions, row.manifest));
      if (extra.length) return await awaitApproval(rt, row, version, rights, extra);
    }
    await q.insertArtifact(ctx.db, pkg.sha256, bytes, ctx.clock.now());
    await applyPluginMigrations(rt.deps.database, ctx.log, pkg, ctx.clock.now());
    const fields = {
      status: 'installed' as const,
      version: pkg.manifest.version,
      target_version: null,
      error: null,
      source,
      manifest: pkg.manifest,
      artifact_sha256: pkg.sha256,
      granted_permissions: rights,
      pending_version: null,
      pending_permissions: null,
      admin_sha256: pkg.manifest.admin ? sha256Of(pkg.files.get(safeEntryPath(pkg.manifest.admin))) : null,
      // An update keeps what it replaces, for a crash-loop rollback (sandbox/rollback.ts).
      previous_release: updating ? previousRelease(row, ctx.clock.now()) : null,
      rollback: null,
    };
    if (pkg.manifest.server) staged = await stagePlugin(rt, { ...row, ...fields }, pkg);
    await rt.exclusive(async () => {
      const finished = await inTx(ctx, async (tctx) => {
        const at = tctx.clock.now();
        const done = await q.finishPipeline(tctx.tx, id, row.status, {
          ...fields,
          updated_at: at,
          ...(updating ? {} : { installed_at: at }),
        });
        if (!done) return null;
        await emit(tctx, updating ? 'plugin.updated' : 'plugin.installed', pluginJson(done));
        await q.notifyPluginChanged(tctx.tx, id);
        return done;
      });
      if (!finished) return host.discard(staged); // uninstalled while installing: nothing goes live
      // Swap right after commit: the new version replaces the old in one synchronous step.
      if (staged) host.activate(staged);
      else host.unload(row.manifest_id);
    });
  } catch (err) {
    host.discard(staged);
    await fail(rt, row, version, (err as Error)?.message ?? String(err));
  }
}

async function awaitApproval(
  rt: PluginRuntime,
  row: q.PluginRow,
  version: string,
  rights: Rights,
  extra: string[],
): Promise<void> {
  const { ctx } = rt;
  ctx.log.info({ plugin: row.marketplace_id, version, extra }, 'plugin update asks for more rights; awaiting approval');
  await inTx(ctx, async (tctx) => {
    const done = await q.finishPipeline(tctx.tx, row.id, 'updating', {
      status: 'installed',
      target_version: null,
      error: null,
      pending_version: version,
      pending_permissions: rights,
      updated_at: tctx.clock.now(),
    });
    if (done) await q.notifyPluginChanged(tctx.tx, row.id);
  });
}

async function fail(rt: PluginRuntime, row: q.PluginRow, version: string, message: string): Promise<void> {
  const { ctx } = rt;
  ctx.log.warn(
    { plugin: row.marketplace_id, version, error: message },
    row.status === 'updating' ? 'plugin update failed' : 'plugin install failed',
  );
  await inTx(ctx, async (tctx) => {
    const at = tctx.clock.now();
    const done =
      row.status === 'updating'
        ? await q.finishPipeline(tctx.tx, row.id, 'updating', {
            status: 'installed',
            target_version: null,
            error: `Update to ${version} failed: ${message}`,
            updated_at: at,
          })
        : await q.finishPipeline(tctx.tx, row.id, 'installing', { status: 'failed', error: message, updated_at: at });
    if (done) await q.notifyPluginChanged(tctx.tx, row.id);
  });
}
