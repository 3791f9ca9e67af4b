import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * V8's code cache for the compiled server. Node 20 has no compile cache of its own
 * (`module.enableCompileCache` came in Node 22), and parsing and compiling the bundle was about
 * half of a start on PostgreSQL. dist/main.js runs dist/server.cjs through `loadWithCodeCache`:
 * the first start compiles it as Node would and, once it listens, saves the code V8 made
 * (`saveCodeCache`); the next starts hand that back to V8 and skip the work.
 *
 * V8 itself refuses a cache made by another V8 version or with other V8 flags (and the script
 * is then compiled as usual); a cache made for another build is never offered: its file is
 * named after the bundle's size, modification time and inode, and the Node version.
 */

export type CacheUse = 'none' | 'accepted' | 'rejected';

interface Loaded {
  /** The script's `module.exports`. */
  exports: unknown;
  /** Whether a cache was there and V8 took it. */
  cache: CacheUse;
  /** Writes the cache for the code compiled so far, unless the one used is current. */
  save(): boolean;
}

/**
 * Where the bundle's cache lives: beside it, in `.code-cache/`. A cache holds the code one start
 * compiled, and a start on PGlite compiles other code (PGlite's own, in the bundle) than one on
 * PostgreSQL: `variant` keeps one cache per kind of start, so neither loads the other's code.
 */
export function codeCacheFile(file: string, variant = ''): string {
  return `${buildPrefix(file)}${variant ? `-${variant}` : ''}.bin`;
}

/** The part of a cache file's name that says which build it belongs to. */
function buildPrefix(file: string): string {
  const s = statSync(file);
  const key = [s.size, Math.round(s.mtimeMs), s.ino, process.version, process.arch].join('-');
  return path.join(path.dirname(file), '.code-cache', `${path.basename(file)}-${key}`);
}

/**
 * Runs a CommonJS file (a bundle with no `import()`: V8 cannot resolve one in code taken from a
 * cache on Node 20) as Node's loader would, with its code cache when there is a current one.
 * The file reaches `cache` and `save` through `codeCacheUse` and `saveCodeCache`.
 */
export function loadWithCodeCache(file: string, variant = ''): Loaded {
  const cacheFile = codeCacheFile(file, variant);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet (first start of this build) or unreadable: compile as usual
  }
  // esbuild writes ASCII (when the sources let it): read as such, it skips UTF-8 decoding.
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const cache: CacheUse = !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const save = () => {
    if (cache === 'accepted') return false;
    try {
      mkdirSync(path.dirname(cacheFile), { recursive: true });
      // Instances started together may save at once: each writes its own file, renamed into place.
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData());
      renameSync(tmp, cacheFile);
      // Other builds' caches go; this build's other variants stay.
      const current = path.basename(buildPrefix(file));
      for (const old of readdirSync(path.dirname(cacheFile)))
        if (!old.startsWith(current) && old.startsWith(`${path.basename(file)}-`))
          rmSync(path.join(path.dirname(cacheFile), old), { force: true });
      return true;
    } catch {
      return false; // a read-only install: every start compiles, as without the cache
    }
  };
  (globalThis as Record<symbol, unknown>)[HOOK] = { cache, save } satisfies Hook;
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, cache, save };
}

const HOOK = Symbol.for('emporium.codeCache');
interface Hook {
  cache: CacheUse;
  save(): boolean;
}
const hook = () => (globalThis as Record<symbol, unknown>)[HOOK] as Hook | undefined;

/** How this process's code was loaded: undefined when not through dist/main.js (tsx, tests). */
export function codeCacheUse(): CacheUse | undefined {
  return hook()?.cache;
}

/**
 * Called by main.ts once the server listens, so the cache holds the code of a whole start.
 * Does nothing when the server was not loaded through dist/main.js, or its cache was current.
 */
export function saveCodeCache(): boolean {
  return hook()?.save() ?? false;
}
