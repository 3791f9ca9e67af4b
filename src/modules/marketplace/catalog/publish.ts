import { inTx, type Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { newId } from '../../../platform/ids.ts';
import { PackageError } from '../../../plugin-package/errors.ts';
import { marketplaceIdOf } from '../../../plugin-package/manifest.ts';
import { readPackage, type PluginPackage } from '../../../plugin-package/read-package.ts';
import { compareVersions, versionSortKey } from '../../../plugin-package/versions.ts';
import { adminItem, type AdminItem } from './item-json.ts';
import * as fields from './item-fields.ts';
import * as q from './queries.ts';
import { ensureSigningKey, signedText, signText } from '../keys/signing-keys.ts';
import { assertOwnsNamespace, reviewerOfUpload } from '../vendors/lookup.ts';
import type { ReviewStatus } from './tables.ts';
import { failedChecks, runReviewChecks } from './review-checks.ts';
import { sandboxInstall } from './sandbox-install.ts';
import type { Config } from '../../../platform/config.ts';
import type { Database } from '../../../platform/db/database.ts';
import { appendApproved } from '../log/log.ts';

export interface Upload {
  file: Buffer;
  /** Text fields of the form: price_eur, billing, changelog_url, description, rollout_percent. */
  fields: Record<string, string>;
}

async function read(file: Buffer): Promise<PluginPackage> {
  try {
    return await readPackage(file);
  } catch (err) {
    if (err instanceof PackageError) throw errors.invalid('marketplace_package_invalid', { detail: err.message });
    throw err;
  }
}

/** The database and configuration the review's sandboxed test install runs with. */
export interface PublishDeps {
  database: Database;
  config: Config;
}

/**
 * Publishes an uploaded package: the first version creates the item, later ones append. The
 * marketplace signs `<marketplace_id>@<version>:<sha256>` with its active key and keeps the
 * bytes. A version that exists (numerically: 1.0 is 1.0.0) is a 409. Publishing a version
 * makes an unpublished item public again. The review checks, the test install among them, run
 * before the transaction; where the version starts is `initialStatus`'s rule.
 */
export async function publishUpload(ctx: Ctx, deps: PublishDeps, upload: Upload): Promise<AdminItem> {
  const { encryptionKey } = deps.config;
  const price = upload.fields.price_eur !== undefined ? fields.priceCents(upload.fields.price_eur) : undefined;
  const changelog =
    upload.fields.changelog_url !== undefined ? fields.changelogUrl(upload.fields.changelog_url) : undefined;
  const text = upload.fields.description !== undefined ? fields.description(upload.fields.description) : undefined;
  const sold = upload.fields.billing !== undefined ? fields.billing(upload.fields.billing) : undefined;
  const rollout =
    upload.fields.rollout_percent !== undefined ? fields.rolloutPercent(upload.fields.rollout_percent) : 100;
  const pkg = await read(upload.file);
  const { manifest } = pkg;
  // A vendor publishes only under its own namespaces; the operator under any.
  await assertOwnsNamespace(ctx, manifest.vendor);
  const marketplaceId = marketplaceIdOf(manifest);
  const key = await ensureSigningKey(ctx, encryptionKey);
  const signature = signText(key, signedText(marketplaceId, manifest.version, pkg.sha256));
  const review = await runReviewChecks(pkg, (p) =>
    sandboxInstall({ database: deps.database, config: deps.config, clock: ctx.clock, log: ctx.log }, p),
  );
  const failed = failedChecks(review);
  const status = initialStatus(await reviewerOfUpload(ctx), failed !== undefined);

  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    await q.insertItemIfAbsent(tctx.tx, {
      id: newId('mpi'),
      marketplace_id: marketplaceId,
      vendor: manifest.vendor,
      manifest_id: manifest.id,
      name: manifest.name,
      type: manifest.type,
      description: text ?? manifest.description ?? '',
      price_cents: price ?? 0,
      billing: sold ?? 'one_time',
      changelog_url: changelog ?? null,
      created_at: now,
      updated_at: now,
    });
    const item = (await q.lockItemByMarketplaceId(tctx.tx, marketplaceId))!;
    const versionKey = versionSortKey(manifest.version);
    const existing = await q.findVersionByKey(tctx.tx, item.id, versionKey);
    if (existing) {
      const as = existing.version === manifest.version ? '' : ` (as ${existing.version})`;
      throw errors.conflict('marketplace_version_exists', {
        version: manifest.version,
        marketplace_id: marketplaceId,
        as,
      });
    }
    const [latest] = await q.latestVersionRows(tctx.tx, [item.id]);
    if (latest && manifest.type !== item.type) {
      throw errors.invalid('marketplace_type_change', {
        marketplace_id: marketplaceId,
        type: item.type,
        new_type: manifest.type,
      });
    }
    const versionId = newId('mpv');
    await q.insertVersion(
      tctx.tx,
      {
        id: versionId,
        item_id: item.id,
        version: manifest.version,
        version_key: versionKey,
        manifest,
        sha256: pkg.sha256,
        size: pkg.size,
        signature,
        key_id: key.keyId,
        changelog_url: changelog ?? null,
        published_at: now,
        status,
        // A failed check is the reason it was rejected, or (the operator's upload) why it waits in review.
        review_reason: failed ?? null,
        review_checks: review,
        reviewed_at: status === 'in_review' ? null : now,
        rollout_percent: rollout,
      },
      upload.file,
    );
    // Approved at once: into the transparency log in the same transaction.
    if (status === 'approved')
      await appendApproved(tctx, marketplaceId, {
        id: versionId,
        version: manifest.version,
        sha256: pkg.sha256,
        key_id: key.keyId,
      });
    const newest = status === 'approved' && (!latest || compareVersions(manifest.version, latest.version) > 0);
    const updated = await q.updateItemRow(tctx.tx, item.id, {
      updated_at: now,
      published: true,
      unpublished_at: null,
      ...(newest ? { name: manifest.name } : {}),
      ...(price !== undefined ? { price_cents: price } : {}),
      ...(sold !== undefined ? { billing: sold } : {}),
      ...(changelog !== undefined ? { changelog_url: changelog } : {}),
      ...(text !== undefined ? { description: text } : {}),
    });
    return adminItem(updated!, await q.listVersionRows(tctx.tx, [item.id]));
  });
}

/**
 * Where a new version starts. Passing every automatic check, the operator's upload is approved at
 * once (the operator is the reviewer), a trusted vendor's too, anyone else's waits for the
 * operator. A failed check is never skipped: a vendor's version (trusted or not) is rejected with
 * the failed checks as its reason, to be fixed and uploaded again; the operator's waits in review
 * with them, and reaches shops only when the operator approves it acknowledging them (review.ts).
 */
function initialStatus(reviewer: 'operator' | 'trusted' | 'vendor', failed: boolean): ReviewStatus {
  if (failed) return reviewer === 'operator' ? 'in_review' : 'rejected';
  return reviewer === 'vendor' ? 'in_review' : 'approved';
}
