import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PluginPackage } from '../../plugin-package/read-package.ts';
import { safeEntryPath } from '../../plugin-package/read-package.ts';

const COMPLETE_MARKER = '.emporium-complete';

/** `DATA_DIR/plugins/<manifest id>`: everything this instance extracted for that plugin. */
export function pluginRoot(dataDir: string, manifestId: string): string {
  return path.join(dataDir, 'plugins', manifestId);
}

/** Removes what this instance extracted for a plugin (after an uninstall); its tables stay. */
export function removePluginFiles(dataDir: string, manifestId: string): Promise<void> {
  return rm(pluginRoot(dataDir, manifestId), { recursive: true, force: true });
}

/**
 * Writes the package's files into `DATA_DIR/plugins/<manifest id>/<version>-<sha256>/` and returns
 * that folder. Every path is re-checked to stay inside it (readPackage already refused absolute
 * paths, `..` and links). Written to a temporary sibling and renamed, so a crash never leaves a
 * half-written folder that looks complete.
 *
 * A folder already there is reused only when its marker holds this package's whole sha256: the
 * folder of another package (a failed install of another vendor's plugin with the same manifest
 * id and version, say) is never run in its place. The folder used to be named by 8 hex digits of
 * the hash and reused on the marker's presence alone, and 32 bits can be matched by brute force.
 */
export async function extractPackage(dataDir: string, pkg: PluginPackage): Promise<string> {
  const folder = path.join(pluginRoot(dataDir, pkg.manifest.id), `${pkg.manifest.version}-${pkg.sha256}`);
  if (await holds(folder, pkg.sha256)) return folder;
  const temp = `${folder}.partial-${randomBytes(4).toString('hex')}`;
  try {
    for (const [name, bytes] of pkg.files) {
      const target = path.resolve(temp, safeEntryPath(name));
      if (!target.startsWith(temp + path.sep)) throw new Error(`Package path "${name}" escapes the plugin folder`);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, bytes, { mode: 0o644 });
    }
    await writeFile(path.join(temp, COMPLETE_MARKER), pkg.sha256);
    await rm(folder, { recursive: true, force: true });
    await rename(temp, folder);
  } catch (err) {
    await rm(temp, { recursive: true, force: true });
    // Another instance on this machine may have finished the same folder first.
    if (await holds(folder, pkg.sha256)) return folder;
    throw err;
  }
  return folder;
}

/** The folder is a complete extraction of the package with this sha256. */
async function holds(folder: string, sha256: string): Promise<boolean> {
  const marker = await readFile(path.join(folder, COMPLETE_MARKER), 'utf8').catch(() => null);
  return marker === sha256;
}
