import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { marketplaceIdOf } from '../../plugin-package/manifest.ts';
import { packPackage } from '../../plugin-package/pack-package.ts';
import { readPackage, type PluginPackage } from '../../plugin-package/read-package.ts';
import { compareVersions } from '../../plugin-package/versions.ts';

export interface LocalPackage {
  marketplaceId: string;
  pkg: PluginPackage;
  bytes: Buffer;
  /** When the file or folder was last changed: the "published" date of a local package. */
  modifiedAt: Date;
}

/**
 * Every valid package in PLUGINS_DIR: `.tgz` files, and plugin folders (with a manifest.json)
 * packed on the fly. The operator put them there, so they are trusted without a signature.
 * An unreadable one is logged and skipped: one bad file must not hide the others.
 */
export async function listLocalPackages(pluginsDir: string, log: FastifyBaseLogger): Promise<LocalPackage[]> {
  const entries = await readdir(pluginsDir, { withFileTypes: true }).catch(() => []);
  const found: LocalPackage[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(pluginsDir, entry.name);
    try {
      let bytes: Buffer;
      if (entry.isFile() && entry.name.endsWith('.tgz')) bytes = await readFile(full);
      else if (entry.isDirectory() && (await stat(path.join(full, 'manifest.json')).catch(() => null)))
        bytes = await packPackage(full);
      else continue;
      const pkg = await readPackage(bytes);
      found.push({ marketplaceId: marketplaceIdOf(pkg.manifest), pkg, bytes, modifiedAt: (await stat(full)).mtime });
    } catch (err) {
      log.warn({ file: full, err: (err as Error).message }, 'skipping unreadable local plugin package');
    }
  }
  return found;
}

/** The local package of that item and version, or null. */
export async function findLocalPackage(
  pluginsDir: string,
  log: FastifyBaseLogger,
  marketplaceId: string,
  version: string,
): Promise<LocalPackage | null> {
  const all = await listLocalPackages(pluginsDir, log);
  return (
    all.find((p) => p.marketplaceId === marketplaceId && compareVersions(p.pkg.manifest.version, version) === 0) ?? null
  );
}
