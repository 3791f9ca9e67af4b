import { closeSync, constants, existsSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

interface Fsx {
  tryLock(fd: number): boolean;
  unlock(fd: number): void;
}
/**
 * fs-native-extensions (Holepunch, prebuilt binaries in the package): open-file-description locks
 * on Linux, flock elsewhere. Loaded by the first lock: a server on PostgreSQL never needs it.
 */
let loaded: Fsx | undefined;
let loader: 'prebuilt' | 'package' | undefined;
const fsx = (): Fsx => {
  if (loaded) return loaded;
  const prebuilt = prebuiltBinding();
  loader = prebuilt ? 'prebuilt' : 'package';
  loaded = prebuilt ?? (requireHere('fs-native-extensions') as Fsx);
  return loaded;
};
const requireHere = createRequire(import.meta.url);

/** How the lock's addon was loaded (tests): undefined before the first lock. */
export const lockAddonLoader = () => loader;

/**
 * The package's prebuilt addon for this platform, loaded by its path. The package finds it
 * through require-addon, whose resolver (and the `url` module it loads) was ~15 ms of every
 * embedded start (a --cpu-prof of a start), for a file whose place is fixed. The package's own
 * loader stays the fallback (another platform, musl, a future layout). The binding's calls are
 * what the package's `tryLock` and `unlock` wrap: `tryLock(fd, offset, length, exclusive)` throws
 * EAGAIN when another open file description holds the lock.
 */
function prebuiltBinding(): Fsx | undefined {
  // Alpine's musl needs the package's -musl build: its own loader picks that.
  if (process.platform !== 'linux' || existsSync('/etc/alpine-release')) return undefined;
  let binding: {
    tryLock(fd: number, o: number, l: number, x: boolean): void;
    unlock(fd: number, o: number, l: number): void;
  };
  try {
    const dir = path.dirname(requireHere.resolve('fs-native-extensions/package.json'));
    binding = requireHere(path.join(dir, 'prebuilds', `linux-${process.arch}`, 'fs-native-extensions.node'));
  } catch {
    return undefined;
  }
  if (typeof binding.tryLock !== 'function' || typeof binding.unlock !== 'function') return undefined;
  return {
    tryLock(fd) {
      try {
        binding.tryLock(fd, 0, 0, true);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return false;
        throw err;
      }
    },
    unlock: (fd) => binding.unlock(fd, 0, 0),
  };
}

/**
 * PGlite has no lock of its own: a second opener of the same data dir silently loses writes.
 * We hold an OS lock on `<dir>/emporium.lock` for as long as the database is open. The kernel
 * drops it when the holder exits, however it exits (kill -9, a container stop), so a lock
 * left behind never blocks a start, and a recycled PID cannot fake a holder: the PID written
 * into the file only names the holder in the error message.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'emporium.lock');
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
  let locked = false;
  try {
    locked = fsx().tryLock(fd);
  } finally {
    if (!locked) closeSync(fd);
  }
  if (!locked) {
    const holder = Number(readFileSync(file, 'utf8')) || 'unknown';
    if (holder === process.pid) throw new Error(`data dir ${dir} is already open in this process`);
    throw new Error(
      `data dir ${dir} is in use by process ${holder} (embedded PGlite allows one process; use DATABASE_URL to run several)`,
    );
  }
  ftruncateSync(fd, 0);
  writeSync(fd, String(process.pid), 0);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    fsx().unlock(fd);
    closeSync(fd);
  };
}
