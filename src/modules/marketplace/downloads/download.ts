import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import * as q from '../catalog/queries.ts';
import { checkLicense } from '../licenses/licenses.ts';
import { artifactPath, checkArtifactUrl, signedArtifactUrl } from './download-url.ts';

export interface DownloadDeps {
  publicUrl: string;
  encryptionKey: string;
}

export interface LicenseQuery {
  license_key?: string;
  instance_id?: string;
}

const LICENSE_REQUIRED = 'A valid license for this instance is required';

/** A published item and one of its versions, or 404 (unpublished items are gone for downloads too). */
async function findDownloadable(
  ctx: Ctx,
  marketplaceId: string,
  version: string,
): Promise<{ item: q.ItemRow; version: q.VersionRow }> {
  const [item] = await q.findItemsByMarketplaceIds(ctx.db, [marketplaceId], true);
  if (!item) throw errors.notFound(`Marketplace item ${marketplaceId} not found`);
  const row = await q.findVersion(ctx.db, item.id, version, true);
  if (!row) throw errors.notFound(`Version ${version} of ${marketplaceId} not found`);
  return { item, version: row };
}

/**
 * Free items download for anyone; a paid one (price above 0) only with a license of that
 * item for the asking instance (`license_key` + `instance_id`), checked by licenses/.
 */
export async function assertDownloadAllowed(ctx: Ctx, item: q.ItemRow, query: LicenseQuery): Promise<void> {
  if (item.price_cents <= 0) return;
  if (!query.license_key || !query.instance_id) throw errors.forbidden(LICENSE_REQUIRED);
  // The same verdict as POST /store/marketplace/license/verify: this item, this instance, not revoked, not expired.
  const verdict = await checkLicense(ctx, {
    marketplace_id: item.marketplace_id,
    license_key: query.license_key,
    instance_id: query.instance_id,
  });
  if (!verdict.ok) throw errors.forbidden(LICENSE_REQUIRED);
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
  return { url, expires_at: expiresAt, sha256: v.sha256, size: v.size, signature: v.signature, key_id: v.key_id };
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
  if (verdict === 'invalid') throw errors.forbidden('Download link is invalid');
  if (verdict === 'expired')
    throw errors.forbidden('Download link has expired; request a new one from the download endpoint');
  const found = await findDownloadable(ctx, marketplaceId, version);
  const bytes = await q.readArtifact(ctx.db, found.version.id);
  if (!bytes) throw errors.notFound(`Version ${version} of ${marketplaceId} not found`);
  return { bytes, filename: `${found.item.vendor}-${found.item.manifest_id}-${version}.tgz` };
}
