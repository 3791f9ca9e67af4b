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
import { assertOwnsNamespace } from '../vendors/lookup.ts';

export interface Upload {
  file: Buffer;
  /** Text fields of the form: price_eur, changelog_url, description. */
  fields: Record<string, string>;
}

async function read(file: Buffer): Promise<PluginPackage> {
  try {
    return await readPackage(file);
  } catch (err) {
    if (err instanceof PackageError) throw errors.invalid(err.message);
    throw err;
  }
}

/**
 * Publishes an uploaded package: the first version creates the item, later ones append. The
 * marketplace signs `<marketplace_id>@<version>:<sha256>` with its active key and keeps the
 * bytes. A version that exists (numerically: 1.0 is 1.0.0) is a 409. Publishing a version
 * makes an unpublished item public again.
 */
export async function publishUpload(ctx: Ctx, encryptionKey: string, upload: Upload): Promise<AdminItem> {
  const price = upload.fields.price_eur !== undefined ? fields.priceCents(upload.fields.price_eur) : undefined;
  const changelog =
    upload.fields.changelog_url !== undefined ? fields.changelogUrl(upload.fields.changelog_url) : undefined;
  const text = upload.fields.description !== undefined ? fields.description(upload.fields.description) : undefined;
  const pkg = await read(upload.file);
  const { manifest } = pkg;
  // A vendor publishes only under its own namespaces; the operator under any.
  await assertOwnsNamespace(ctx, manifest.vendor);
  const marketplaceId = marketplaceIdOf(manifest);
  const key = await ensureSigningKey(ctx, encryptionKey);
  const signature = signText(key, signedText(marketplaceId, manifest.version, pkg.sha256));

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
      changelog_url: changelog ?? null,
      created_at: now,
      updated_at: now,
    });
    const item = (await q.lockItemByMarketplaceId(tctx.tx, marketplaceId))!;
    const versionKey = versionSortKey(manifest.version);
    const existing = await q.findVersionByKey(tctx.tx, item.id, versionKey);
    if (existing) {
      const as = existing.version === manifest.version ? '' : ` (as ${existing.version})`;
      throw errors.conflict(`Version ${manifest.version} of ${marketplaceId} already exists${as}`);
    }
    const [latest] = await q.latestVersionRows(tctx.tx, [item.id]);
    if (latest && manifest.type !== item.type) {
      throw errors.invalid(
        `${marketplaceId} is a ${item.type}; a new version cannot change its type to ${manifest.type}`,
      );
    }
    await q.insertVersion(
      tctx.tx,
      {
        id: newId('mpv'),
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
      },
      upload.file,
    );
    const newest = !latest || compareVersions(manifest.version, latest.version) > 0;
    const updated = await q.updateItemRow(tctx.tx, item.id, {
      updated_at: now,
      published: true,
      unpublished_at: null,
      ...(newest ? { name: manifest.name } : {}),
      ...(price !== undefined ? { price_cents: price } : {}),
      ...(changelog !== undefined ? { changelog_url: changelog } : {}),
      ...(text !== undefined ? { description: text } : {}),
    });
    return adminItem(updated!, await q.listVersionRows(tctx.tx, [item.id]));
  });
}
