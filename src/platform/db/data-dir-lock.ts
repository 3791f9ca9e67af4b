import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite has no lock of its own: a second opener of the same data dir silently loses writes.
 * We hold `<dir>/emporium.lock` with our pid; a lock left by a dead process is taken over.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'emporium.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(`data dir ${dir} is in use by process ${pid} (embedded PGlite allows one process; use DATABASE_URL to run several)`);
      }
      if (pid === process.pid) throw new Error(`data dir ${dir} is already open in this process`);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock data dir ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
