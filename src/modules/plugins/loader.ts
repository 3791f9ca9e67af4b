import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
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
 * Writes the package's files into `DATA_DIR/plugins/<manifest id>/<version>-<sha8>/` and returns
 * that folder. Every path is re-checked to stay inside it (readPackage already refused absolute
 * paths, `..` and links). Written to a temporary sibling and renamed, so a crash never leaves a
 * half-written folder that looks complete.
 */
export async function extractPackage(dataDir: string, pkg: PluginPackage): Promise<string> {
  const folder = path.join(pluginRoot(dataDir, pkg.manifest.id), `${pkg.manifest.version}-${pkg.sha256.slice(0, 8)}`);
  if (await stat(path.join(folder, COMPLETE_MARKER)).catch(() => null)) return folder;
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
    if (await stat(path.join(folder, COMPLETE_MARKER)).catch(() => null)) return folder;
    throw err;
  }
  return folder;
}
