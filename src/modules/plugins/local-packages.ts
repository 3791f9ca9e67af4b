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

/** A plugin folder or file in PLUGINS_DIR that could not be packed or read, and why. */
export interface LocalPackageProblem {
  /** `plugins/<name>` as the operator knows it. */
  file: string;
  /** From its manifest.json when that much is readable. */
  marketplaceId: string | null;
  error: string;
}

/** The manifest's marketplace id of a folder, when its manifest.json parses that far. */
async function idOfFolder(full: string): Promise<string | null> {
  try {
    const raw = JSON.parse(await readFile(path.join(full, 'manifest.json'), 'utf8')) as {
      id?: unknown;
      vendor?: unknown;
    };
    return typeof raw.id === 'string' && typeof raw.vendor === 'string'
      ? marketplaceIdOf({ id: raw.id, vendor: raw.vendor })
      : null;
  } catch {
    return null;
  }
}

/** The failure as the operator can act on it: a dependency the bundler cannot find means `npm install`. */
function reasonOf(err: unknown, name: string, folder: boolean): string {
  const message = (err as Error).message;
  if (folder && /could not resolve|cannot find (module|package)/i.test(message))
    return `${message} (run npm install in plugins/${name})`;
  return message;
}

/**
 * Every valid package in PLUGINS_DIR: `.tgz` files, and plugin folders (with a manifest.json)
 * packed on the fly. The operator put them there, so they are trusted without a signature.
 * An unreadable one is logged and skipped: one bad file must not hide the others.
 */
export async function listLocalPackages(
  pluginsDir: string,
  log: FastifyBaseLogger,
  problems: LocalPackageProblem[] = [],
): Promise<LocalPackage[]> {
  const entries = await readdir(pluginsDir, { withFileTypes: true }).catch(() => []);
  const found: LocalPackage[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(pluginsDir, entry.name);
    const folder = entry.isDirectory();
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
      problems.push({
        file: `plugins/${entry.name}`,
        marketplaceId: folder ? await idOfFolder(full) : null,
        error: reasonOf(err, entry.name, folder),
      });
    }
  }
  return found;
}

/** The local package of that item and version, or null; a folder of that item that cannot be packed throws its reason. */
export async function findLocalPackage(
  pluginsDir: string,
  log: FastifyBaseLogger,
  marketplaceId: string,
  version: string,
): Promise<LocalPackage | null> {
  const problems: LocalPackageProblem[] = [];
  const all = await listLocalPackages(pluginsDir, log, problems);
  const found = all.find(
    (p) => p.marketplaceId === marketplaceId && compareVersions(p.pkg.manifest.version, version) === 0,
  );
  if (found) return found;
  const broken = problems.find((p) => p.marketplaceId === marketplaceId);
  if (broken) throw new Error(`${broken.file} cannot be packed: ${broken.error}`);
  return null;
}
