import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { BUNDLE_RECORD, bundleServerEntry, type BundleRecord } from './bundle.ts';
import { PackageError } from './errors.ts';
import { PACKAGE_LIMITS } from './limits.ts';
import { validateManifest } from './manifest.ts';
import { readPackage, safeEntryPath } from './read-package.ts';

/** Not shipped: version-control and editor files, dependencies (bundle them into the entry), earlier packs. */
function skipped(name: string, atRoot: boolean): boolean {
  return name.startsWith('.') || name === 'node_modules' || (atRoot && name.endsWith('.tgz'));
}

async function listFiles(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const d of await readdir(path.join(root, rel), { withFileTypes: true })) {
    if (skipped(d.name, rel === '')) continue;
    const child = rel ? `${rel}/${d.name}` : d.name;
    if (d.isSymbolicLink())
      throw new PackageError(`"${child}" is a symbolic link; packages may only contain regular files`);
    if (d.isDirectory()) out.push(...(await listFiles(root, child)));
    else if (d.isFile()) out.push(child);
    else throw new PackageError(`"${child}" is not a regular file`);
    if (out.length > PACKAGE_LIMITS.files) throw new PackageError(`Folder has more than ${PACKAGE_LIMITS.files} files`);
  }
  return out;
}

function tarOf(entries: { name: string; data: Buffer }[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pack.on('data', (c) => chunks.push(Buffer.from(c as Uint8Array)));
    pack.on('end', () => resolve(Buffer.concat(chunks)));
    pack.on('error', reject);
  });
  // Everything that could differ between machines or runs is fixed: order, times, owners, modes.
  for (const { name, data } of entries) {
    pack.entry(
      { name, size: data.length, mode: 0o644, mtime: new Date(0), uid: 0, gid: 0, uname: '', gname: '', type: 'file' },
      data,
    );
  }
  pack.finalize();
  return done;
}

/**
 * Packs a plugin folder into a .tgz with its files at the root. Deterministic: the same files
 * give the same bytes (sorted entries, mtime 0, owner 0, mode 0644, gzip without a timestamp
 * and with a fixed OS byte), so the sha256 identifies the content. A plugin whose package.json
 * declares dependencies has its server entry replaced by a bundle of it and those libraries
 * (bundle.ts), with `emporium-bundle.json` saying what went in. The result is read back with
 * readPackage, so a pack that succeeds is one the marketplace accepts.
 */
/** `version`: packs the manifest with this version instead (`emporium plugin dev` numbers its reloads). */
export interface PackOptions {
  nodePaths?: string[];
  version?: string;
}

export async function packPackage(dir: string, opts: PackOptions = {}): Promise<Buffer> {
  return (await packPlugin(dir, opts)).bytes;
}

/** packPackage, also telling what was bundled (null: nothing, the entry is packed as written). */
export async function packPlugin(
  dir: string,
  opts: PackOptions = {},
): Promise<{ bytes: Buffer; bundled: BundleRecord | null }> {
  const stat = await lstat(dir).catch(() => null);
  if (!stat?.isDirectory()) throw new PackageError(`"${dir}" is not a folder`);
  const names = (await listFiles(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (!names.includes('manifest.json')) throw new PackageError(`"${dir}" has no manifest.json`);
  const entries: { name: string; data: Buffer }[] = await Promise.all(
    names.map(async (name) => ({ name, data: await readFile(path.join(dir, name)) })),
  );
  let bundled: BundleRecord | null = null;
  const manifestEntry = entries.find((e) => e.name === 'manifest.json')!;
  let manifest = parseManifest(manifestEntry.data);
  if (opts.version) {
    const raw = JSON.parse(manifestEntry.data.toString('utf8'));
    manifestEntry.data = Buffer.from(`${JSON.stringify({ ...raw, version: opts.version }, null, 2)}\n`);
    manifest = parseManifest(manifestEntry.data);
  }
  if (manifest.server) {
    const entry = safeEntryPath(manifest.server);
    const bundle = names.includes(entry) ? await bundleServerEntry(dir, entry, opts) : null;
    if (bundle) {
      bundled = bundle.record;
      entries.find((e) => e.name === entry)!.data = bundle.code;
      const record = { name: BUNDLE_RECORD, data: Buffer.from(`${JSON.stringify(bundle.record, null, 2)}\n`) };
      const at = entries.findIndex((e) => e.name === BUNDLE_RECORD);
      if (at >= 0) entries[at] = record;
      else entries.push(record);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
  }
  const gz = gzipSync(await tarOf(entries), { level: 9 });
  gz[9] = 3; // OS = Unix whatever platform packed it (the header's mtime is already 0)
  await readPackage(gz);
  return { bytes: gz, bundled };
}

function parseManifest(bytes: Buffer) {
  try {
    return validateManifest(JSON.parse(bytes.toString('utf8')));
  } catch (err) {
    if (err instanceof PackageError) throw err;
    throw new PackageError('manifest.json is not valid JSON');
  }
}
