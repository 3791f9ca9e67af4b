import { createHash } from 'node:crypto';
import type { Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { PACKAGE_LIMITS } from '../../plugin-package/limits.ts';
import { readPackage, type PluginPackage } from '../../plugin-package/read-package.ts';
import { marketplaceClient, MarketplaceError } from '../federation/client.ts';
import { instanceIdFor } from '../federation/instance-id.ts';
import { verifyLogged } from '../federation/log-check.ts';
import { verifyArtifactSignature } from '../federation/signature.ts';
import { findLocalPackage } from './local-packages.ts';
import type { PluginRow } from './queries.ts';
import type { PluginSource } from './tables.ts';

export interface FetchedPackage {
  pkg: PluginPackage;
  bytes: Buffer;
  source: PluginSource;
}

interface Descriptor {
  url?: unknown;
  sha256?: unknown;
  size?: unknown;
  signature?: unknown;
  key_id?: unknown;
  log?: unknown;
}

function checkDescriptor(d: Descriptor): {
  url: string;
  sha256: string;
  size: number;
  signature: string;
  keyId: string;
} {
  if (
    typeof d.url !== 'string' ||
    typeof d.sha256 !== 'string' ||
    !/^[0-9a-f]{64}$/.test(d.sha256) ||
    typeof d.signature !== 'string' ||
    typeof d.key_id !== 'string'
  ) {
    throw new Error('Marketplace sent an incomplete download descriptor');
  }
  if (
    typeof d.size !== 'number' ||
    !Number.isInteger(d.size) ||
    d.size < 1 ||
    d.size > PACKAGE_LIMITS.compressedBytes
  ) {
    throw new Error(
      `Marketplace download descriptor has an invalid size (${String(d.size)}); at most ${PACKAGE_LIMITS.compressedBytes} bytes are accepted`,
    );
  }
  return { url: d.url, sha256: d.sha256, size: d.size, signature: d.signature, keyId: d.key_id };
}

/**
 * Resolves, downloads and verifies a package (the pipeline's first steps): a package in PLUGINS_DIR
 * (the operator's own, trusted as is), else the marketplace's signed download, accepted only when
 * its byte count, sha256 and Ed25519 signature (pinned key) all match and the transparency log
 * holds it (federation/log-check.ts). Nothing of the package is
 * run here; the caller still checks the manifest before anything loads.
 */
export async function fetchVerifiedPackage(
  ctx: Ctx,
  config: Config,
  row: PluginRow,
  version: string,
): Promise<FetchedPackage> {
  const mid = row.marketplace_id;
  const local = await findLocalPackage(config.pluginsDir, ctx.log, mid, version);
  if (local) return { pkg: local.pkg, bytes: local.bytes, source: 'local' };

  const client = marketplaceClient(config.federation);
  if (!client)
    throw new Error(
      `${mid}@${version} is not in the local plugin folder (PLUGINS_DIR) and no marketplace is configured (SERVICE_FEDERATION_URL)`,
    );
  const query: Record<string, string> = {};
  // The instance token also counts this shop once among the item's installs (and proves it may review it).
  query.instance_id = await instanceIdFor(ctx, config.encryptionKey, client.url);
  if (row.license_key) query.license_key = decryptSecret(config.encryptionKey, row.license_key);
  let d: ReturnType<typeof checkDescriptor>;
  let descriptorLog: unknown;
  try {
    const raw = await client.getJson<Descriptor>(`/store/marketplace/download/${mid}/${version}`, query);
    d = checkDescriptor(raw);
    descriptorLog = raw.log;
  } catch (err) {
    if (err instanceof MarketplaceError && err.upstreamStatus === 404)
      throw new Error(`${mid}@${version} was not found in the marketplace`);
    throw err;
  }
  const bytes = await client.download(d.url, PACKAGE_LIMITS.compressedBytes);
  if (bytes.length !== d.size)
    throw new Error(`Download size mismatch: the marketplace announced ${d.size} bytes, received ${bytes.length}`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== d.sha256)
    throw new Error(`sha256 mismatch: the marketplace announced ${d.sha256}, the download is ${sha256}`);
  await verifyArtifactSignature(ctx, client, {
    marketplaceId: mid,
    version,
    sha256,
    signature: d.signature,
    keyId: d.keyId,
  });
  // In the transparency log, as these very bytes, under a head consistent with what this shop saw before.
  await verifyLogged(ctx, client, { marketplaceId: mid, version, sha256, keyId: d.keyId }, descriptorLog);
  return { pkg: await readPackage(bytes), bytes, source: 'federation' };
}
