import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PackageError } from './errors.ts';

/** What `emporium-bundle.json` (written into a bundled package) records. */
export interface BundleRecord {
  entry: string;
  bundler: string;
  /** Every npm package whose code went into the entry, with the version that was bundled. */
  packages: { name: string; version: string; license: string | null }[];
}

export const BUNDLE_RECORD = 'emporium-bundle.json';

/** The plugin's npm dependencies (its package.json), or none. */
async function declaredDependencies(dir: string): Promise<string[]> {
  const text = await readFile(path.join(dir, 'package.json'), 'utf8').catch(() => null);
  if (text === null) return [];
  try {
    const deps = (JSON.parse(text) as { dependencies?: Record<string, string> }).dependencies;
    return deps && typeof deps === 'object' ? Object.keys(deps) : [];
  } catch {
    throw new PackageError('package.json is not valid JSON');
  }
}

/** `…/node_modules/@scope/name/lib/x.js` → the package's root folder and name (the innermost node_modules). */
function packageOf(file: string): { root: string; name: string } | null {
  const parts = file.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return null;
  const scoped = parts[at + 1].startsWith('@');
  const nameParts = parts.slice(at + 1, at + (scoped ? 3 : 2));
  return { root: parts.slice(0, at + 1 + nameParts.length).join('/'), name: nameParts.join('/') };
}

/**
 * A plugin with npm dependencies (package.json `dependencies`) gets its server entry bundled with
 * esbuild: one ES module holding the entry and every library it imports (Node's built-ins stay
 * imports), so the installed plugin needs nothing from the shop's node_modules, and two plugins
 * may carry different versions of one library. Returns null for a plugin without dependencies
 * (packed as written). `nodePaths` adds folders to look up packages in (tests packing a copy).
 */
export async function bundleServerEntry(
  dir: string,
  entry: string,
  opts: { nodePaths?: string[] } = {},
): Promise<{ code: Buffer; record: BundleRecord } | null> {
  if (!(await declaredDependencies(dir)).length) return null;
  // Loaded only when packing: the shop itself never bundles at start.
  const esbuild = await import('esbuild');
  let result: Awaited<ReturnType<typeof esbuild.build>>;
  try {
    result = await esbuild.build({
      absWorkingDir: path.resolve(dir),
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      metafile: true,
      logLevel: 'silent',
      legalComments: 'eof',
      nodePaths: opts.nodePaths ?? [],
      // CommonJS libraries call require() for Node's built-ins; an ES module has none of its own.
      banner: {
        js: "import { createRequire as __emporiumRequire } from 'node:module'; const require = __emporiumRequire(import.meta.url);",
      },
    });
  } catch (err) {
    const first = (err as { errors?: { text: string }[] }).errors?.[0]?.text ?? (err as Error).message;
    throw new PackageError(`Bundling ${entry} failed: ${first}`);
  }
  const roots = new Map<string, string>();
  for (const input of Object.keys(result.metafile!.inputs)) {
    const found = packageOf(input.replaceAll('\\', '/'));
    if (found) roots.set(found.root, found.name);
  }
  const packages: BundleRecord['packages'] = [];
  for (const [root, name] of roots) {
    const meta = JSON.parse(await readFile(path.resolve(dir, root, 'package.json'), 'utf8')) as {
      version?: string;
      license?: string;
    };
    packages.push({ name, version: meta.version ?? 'unknown', license: meta.license ?? null });
  }
  packages.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
  return {
    code: Buffer.from(result.outputFiles![0].contents),
    record: { entry, bundler: `esbuild@${esbuild.version}`, packages },
  };
}
