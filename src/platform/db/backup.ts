import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openPglite, type Database } from './database.ts';

/**
 * Backups of the embedded database (`emporium backup <file>`, `emporium restore <file>`).
 * A running server holds the data dir, so it answers backup requests itself on a Unix socket
 * in the data dir (`DATA_DIR/control.sock`, mode 0600: whoever may read the data dir may take
 * a backup, nobody else); the dump is PGlite's tarball of the data dir, taken between two
 * queries, so it is consistent. Without a running server the CLI opens the data dir itself.
 * Secrets are not in the backup (see docs/operations.md, "Backups").
 */
export const controlSocketPath = (dataDir: string) => path.join(dataDir, 'control.sock');

/** Server side: answers `backup` on the control socket. Call only while holding the data-dir lock. */
export async function serveBackups(database: Database, dataDir: string): Promise<() => Promise<void>> {
  const file = controlSocketPath(dataDir);
  rmSync(file, { force: true }); // left by a process that died; we hold the lock, so it was not a live one
  const server: Server = createServer((socket) => {
    socket.once('data', async (data) => {
      if (data.toString('utf8').trim() !== 'backup' || !database.dump) {
        socket.end('ERR unknown command\n');
        return;
      }
      try {
        const dump = await database.dump();
        socket.write('OK\n');
        socket.end(dump);
      } catch (err) {
        socket.end(`ERR ${(err as Error).message}\n`);
      }
    });
    socket.on('error', () => {});
  });
  const oldMask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, resolve);
    });
  } finally {
    process.umask(oldMask);
  }
  server.unref();
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      rmSync(file, { force: true });
    });
}

/** Asks the running server for a dump; null when no server listens on the data dir. */
function dumpFromServer(dataDir: string): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(controlSocketPath(dataDir));
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.write('backup\n'));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? resolve(null) : reject(err),
    );
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      const head = all.subarray(0, newline).toString('utf8');
      if (head !== 'OK') return reject(new Error(`backup refused by the running server: ${head}`));
      resolve(all.subarray(newline + 1));
    });
  });
}

/** Writes a backup of the embedded database under `dataDir` to `file`; says where it came from. */
export async function backupDataDir(dataDir: string, file: string): Promise<'running server' | 'data dir'> {
  const fromServer = await dumpFromServer(dataDir);
  if (fromServer) {
    await writeFile(file, fromServer, { mode: 0o600 });
    return 'running server';
  }
  if (!existsSync(path.join(dataDir, 'pglite'))) throw new Error(`no embedded database in ${dataDir}`);
  const database = await openPglite(dataDir);
  try {
    await writeFile(file, await database.dump!(), { mode: 0o600 });
  } finally {
    await database.close();
  }
  return 'data dir';
}

/** Creates the embedded database of an empty `dataDir` from a backup file. */
export async function restoreDataDir(dataDir: string, file: string): Promise<void> {
  const target = path.join(dataDir, 'pglite');
  if (existsSync(target) && readdirSync(target).length)
    throw new Error(`${target} is not empty: restore into a new DATA_DIR (or move the old database away first)`);
  const bytes = await readFile(file);
  const database = await openPglite(dataDir, { restoreFrom: new Blob([bytes]) });
  try {
    await database.db.execute(sql`select count(*) from pg_class`); // the restored files open as a database
  } finally {
    await database.close();
  }
}
