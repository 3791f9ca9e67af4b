import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import tar from 'tar-stream';
import { PackageError } from './errors.ts';
import { PACKAGE_LIMITS } from './limits.ts';
import { validateManifest, type PluginManifest } from './manifest.ts';

export interface PluginPackage {
  manifest: PluginManifest;
  /** Every regular file, keyed by its normalised path inside the package (`server/index.js`). */
  files: Map<string, Buffer>;
  /** Size of the .tgz as given, and the lower-case hex sha256 of those bytes. */
  size: number;
  sha256: string;
  unpackedBytes: number;
}

const MiB = 1024 * 1024;

/**
 * A path from the archive, made canonical, or an error: no absolute paths (POSIX or Windows),
 * no `..`, no backslashes or NUL, so nothing can ever land outside the plugin's own folder.
 */
export function safeEntryPath(raw: string): string {
  if (raw.includes('\0') || raw.includes('\\')) throw new PackageError(`Unsafe path in package: "${raw}"`);
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) throw new PackageError(`Absolute path in package: "${raw}"`);
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new PackageError(`Path traversal in package: "${raw}"`);
  return parts.join('/');
}

function gunzip(buffer: Buffer): Buffer {
  if (buffer.length > PACKAGE_LIMITS.compressedBytes)
    throw new PackageError(`Package is larger than ${PACKAGE_LIMITS.compressedBytes / MiB} MiB compressed`);
  if (buffer.length < 18 || buffer[0] !== 0x1f || buffer[1] !== 0x8b)
    throw new PackageError('Package is not a gzip file (.tgz expected)');
  // Headroom for tar headers and padding; the files themselves are counted exactly below.
  const maxOutputLength = PACKAGE_LIMITS.unpackedBytes + (PACKAGE_LIMITS.files + 2) * 1024;
  try {
    return gunzipSync(buffer, { maxOutputLength });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new PackageError(`Package unpacks to more than ${PACKAGE_LIMITS.unpackedBytes / MiB} MiB`);
    throw new PackageError('Package is not a valid gzip file');
  }
}

async function untar(tarBytes: Buffer): Promise<{ files: Map<string, Buffer>; unpackedBytes: number }> {
  const files = new Map<string, Buffer>();
  let unpackedBytes = 0;
  let entries = 0;
  const extract = tar.extract();
  extract.end(tarBytes);
  try {
    for await (const entry of extract) {
      const { type, name, size } = entry.header;
      if (++entries > PACKAGE_LIMITS.files)
        throw new PackageError(`Package has more than ${PACKAGE_LIMITS.files} entries`);
      const path = safeEntryPath(name);
      if (type === 'directory') {
        entry.resume();
        continue;
      }
      if (type !== 'file' && type !== 'contiguous-file')
        throw new PackageError(`Package entry "${name}" is a ${type}; only regular files and folders are allowed`);
      if (!path) throw new PackageError('Package has a file without a name');
      if (files.has(path)) throw new PackageError(`Package contains "${path}" twice`);
      unpackedBytes += size;
      if (unpackedBytes > PACKAGE_LIMITS.unpackedBytes)
        throw new PackageError(`Package unpacks to more than ${PACKAGE_LIMITS.unpackedBytes / MiB} MiB`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(Buffer.from(chunk as Uint8Array));
      files.set(path, Buffer.concat(chunks));
    }
  } catch (err) {
    if (err instanceof PackageError) throw err;
    throw new PackageError(`Package is not a valid tar archive: ${(err as Error).message}`);
  } finally {
    extract.destroy();
  }
  if (entries === 0) throw new PackageError('Package is empty');
  return { files, unpackedBytes };
}

function readManifest(files: Map<string, Buffer>): PluginManifest {
  const raw = files.get('manifest.json');
  if (!raw) {
    const nested = [...files.keys()].find((p) => p.endsWith('/manifest.json'));
    throw new PackageError(
      nested
        ? `manifest.json must be at the root of the package, found "${nested}" (pack the folder's contents, not the folder)`
        : 'Package has no manifest.json',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new PackageError(`manifest.json is not valid JSON: ${(err as Error).message}`);
  }
  return validateManifest(json);
}

/** The files the manifest points at must be in the package (a migrations folder: at least one .sql). */
function checkReferencedPaths(manifest: PluginManifest, files: Map<string, Buffer>): void {
  for (const field of ['server', 'admin'] as const) {
    const path = manifest[field];
    if (path !== undefined && !files.has(safeEntryPath(path)))
      throw new PackageError(`manifest.json names ${field} entry "${path}", which is not in the package`);
  }
  if (manifest.migrations !== undefined) {
    const dir = safeEntryPath(manifest.migrations);
    const hasSql = [...files.keys()].some((p) => p.startsWith(`${dir}/`) && p.endsWith('.sql'));
    if (!hasSql)
      throw new PackageError(
        `manifest.json names migrations folder "${manifest.migrations}", which has no .sql file in the package`,
      );
  }
}

/**
 * Reads a plugin package entirely in memory (nothing touches the disk): gunzip and untar
 * within the limits, refuse links, devices and unsafe paths, validate manifest.json and
 * the entries it names. Throws PackageError with a message fit for the vendor.
 */
export async function readPackage(buffer: Buffer): Promise<PluginPackage> {
  const tarBytes = gunzip(buffer);
  const { files, unpackedBytes } = await untar(tarBytes);
  const manifest = readManifest(files);
  checkReferencedPaths(manifest, files);
  return {
    manifest,
    files,
    size: buffer.length,
    sha256: createHash('sha256').update(buffer).digest('hex'),
    unpackedBytes,
  };
}
