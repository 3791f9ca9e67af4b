import type { Ctx } from '../../../platform/context.ts';
import { AppError, errors } from '../../../platform/http/errors.ts';
import * as q from '../catalog/queries.ts';
import { checkLicense } from '../licenses/licenses.ts';
import { inclusion, signedTreeHead } from '../log/log.ts';
import { recordInstall } from '../ratings/ratings.ts';
import { artifactPath, checkArtifactUrl, signedArtifactUrl } from './download-url.ts';

export interface DownloadDeps {
  publicUrl: string;
  encryptionKey: string;
}

export interface LicenseQuery {
  license_key?: string;
  instance_id?: string;
}

/** A published item and one of its versions, or 404 (unpublished items are gone for downloads too). */
async function findDownloadable(
  ctx: Ctx,
  marketplaceId: string,
  version: string,
): Promise<{ item: q.ItemRow; version: q.VersionRow }> {
  const [item] = await q.findItemsByMarketplaceIds(ctx.db, [marketplaceId], true);
  if (!item) throw errors.notFound('marketplace_item_not_found', { marketplace_id: marketplaceId });
  const row = await q.findVersion(ctx.db, item.id, version, true);
  if (!row) throw errors.notFound('marketplace_version_not_found', { version, marketplace_id: marketplaceId });
  return { item, version: row };
}

/**
 * Free items download for anyone; a paid one (price above 0) only with a license of that
 * item for the asking instance (`license_key` + `instance_id`), checked by licenses/.
 */
export async function assertDownloadAllowed(ctx: Ctx, item: q.ItemRow, query: LicenseQuery): Promise<void> {
  if (item.price_cents <= 0) return;
  if (!query.license_key || !query.instance_id) throw errors.forbidden('marketplace_license_required');
  // The same verdict as POST /store/marketplace/license/verify: this item, this instance, not revoked, not expired.
  const verdict = await checkLicense(ctx, {
    marketplace_id: item.marketplace_id,
    license_key: query.license_key,
    instance_id: query.instance_id,
  });
  if (!verdict.ok) throw errors.forbidden('marketplace_license_required');
}

/** The download descriptor: a 15-minute signed URL plus what the shop verifies. */
export async function downloadDescriptor(
  ctx: Ctx,
  deps: DownloadDeps,
  marketplaceId: string,
  version: string,
  query: LicenseQuery,
) {
  const found = await findDownloadable(ctx, marketplaceId, version);
  await assertDownloadAllowed(ctx, found.item, query);
  const { url, expiresAt } = signedArtifactUrl({
    ...deps,
    now: ctx.clock.now(),
    marketplaceId,
    version: found.version.version,
  });
  const v = found.version;
  // Counted once per shop among the item's installs; what lets that shop review it.
  if (query.instance_id) await recordInstall(ctx, found.item.id, query.instance_id, v.version);
  return {
    url,
    expires_at: expiresAt,
    sha256: v.sha256,
    size: v.size,
    signature: v.signature,
    key_id: v.key_id,
    log: await logProof(ctx, deps, marketplaceId, v),
  };
}

/** The version's inclusion proof under the current signed head (null only for a version approved before the log existed and not yet in it). */
async function logProof(ctx: Ctx, deps: DownloadDeps, marketplaceId: string, v: q.VersionRow) {
  const sth = await signedTreeHead(ctx, deps.encryptionKey);
  try {
    return {
      ...(await inclusion(ctx, {
        marketplace_id: marketplaceId,
        version: v.version,
        sha256: v.sha256,
        tree_size: sth.tree_size,
      })),
      sth,
    };
  } catch (err) {
    if (err instanceof AppError && err.type === 'not_found') return null;
    throw err;
  }
}

/** The bytes behind a signed URL: a forged or altered URL and an expired one are 403, before any lookup. */
export async function readArtifact(
  ctx: Ctx,
  deps: DownloadDeps,
  marketplaceId: string,
  version: string,
  query: { expires?: string; signature?: string },
) {
  const verdict = checkArtifactUrl({
    encryptionKey: deps.encryptionKey,
    now: ctx.clock.now(),
    path: artifactPath(marketplaceId, version),
    ...query,
  });
  if (verdict === 'invalid') throw errors.forbidden('marketplace_download_link_invalid');
  if (verdict === 'expired') throw errors.forbidden('marketplace_download_link_expired');
  const found = await findDownloadable(ctx, marketplaceId, version);
  const bytes = await q.readArtifact(ctx.db, found.version.id);
  if (!bytes) throw errors.notFound('marketplace_version_not_found', { version, marketplace_id: marketplaceId });
  return { bytes, filename: `${found.item.vendor}-${found.item.manifest_id}-${version}.tgz` };
}
