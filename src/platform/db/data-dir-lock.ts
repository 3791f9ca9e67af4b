import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
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
const fsx = (): Fsx => (loaded ??= createRequire(import.meta.url)('fs-native-extensions') as Fsx);

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
