import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './processes.ts';

/**
 * A throwaway PostgreSQL primary and a hot standby of it, made with the machine's own binaries
 * (PG_BIN, else /usr/lib/postgresql/<newest>/bin) as the postgres OS user, each in a temp dir on a port of its
 * own: initdb with wal_level=replica, then `pg_basebackup -R` (which writes standby.signal and
 * primary_conninfo). Both accept anyone from 127.0.0.1 (trust): they live for one test file
 * (test/multi/read-replicas.test.ts) or one benchmark run (bench/journey.ts --replica).
 *
 * Setting up runs the tools without blocking the event loop, so a Ctrl-C handler can run
 * meanwhile: `newStandby()` makes the folder and returns at once, `start()` sets the cluster up,
 * and `stop()` (synchronous) may be called at any point, half-way through `start()` included.
 */
export interface StandbyOptions {
  /** The database created on the primary before the base backup (default `shop`). */
  database?: string;
  /** postgresql.conf lines added after (so overriding) the defaults below. */
  settings?: string[];
}

export interface Standby {
  /** initdb, the primary started, the database created, the base backup taken, the standby started. */
  start(): Promise<void>;
  primaryUrl(db: string): string;
  replicaUrl(db: string): string;
  /** Stops the replica at once (as a crash would). */
  killReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /**
   * Whatever runs stopped at once (immediate shutdown) and the folder removed as soon as it has
   * gone; returns at once, so a signal handler may call it.
   */
  stop(): void;
}

/** `sh -c REAPER <folder> <pid>`: once <pid> has ended, the folder's servers get SIGQUIT, and the folder goes once they are gone. */
const REAPER = `
  while kill -0 "$1" 2>/dev/null; do sleep 1; done
  for f in "$0"/*/postmaster.pid; do
    [ -f "$f" ] || continue
    p=$(head -n 1 "$f")
    [ "$(cat /proc/$p/comm 2>/dev/null)" = postgres ] || continue
    kill -QUIT "$p"
    while kill -0 "$p" 2>/dev/null; do sleep 0.05; done
  done
  rm -rf "$0"`;

/** The running postmaster of a data directory, or 0. */
function postmasterOf(dir: string): number {
  try {
    const pid = Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres' ? pid : 0;
  } catch {
    return 0;
  }
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

export async function startStandby(opts: StandbyOptions = {}): Promise<Standby> {
  const standby = newStandby(opts);
  await standby.start();
  return standby;
}

export function newStandby(opts: StandbyOptions = {}): Standby {
  const bin = binDir();
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  const work = mkdtempSync(path.join(tmpdir(), 'emporium-standby-'));
  chownSync(work, uid, gid);
  // Should this process end without stop() (SIGKILL, a crashed worker), a detached shell does it.
  spawn('sh', ['-c', REAPER, work, String(process.pid)], { detached: true, stdio: 'ignore' }).unref();
  const primaryDir = path.join(work, 'primary');
  const replicaDir = path.join(work, 'replica');
  let primaryPort = 0;
  let replicaPort = 0;
  const ctlArgs = (dir: string, port: number, action: 'start' | 'stop', extra: string[] = []) => [
    '-D',
    dir,
    '-l',
    path.join(work, `${path.basename(dir)}.log`),
    '-o',
    `-p ${port} -k ${work} -c listen_addresses=127.0.0.1`,
    '-w',
    action,
    ...extra,
  ];
  // Without blocking the event loop: a test's load, or a bench's Ctrl-C handler, goes on meanwhile.
  const running = new Set<ChildProcess>();
  const run = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = execFile(path.join(bin, tool), args, { uid, gid, cwd: work, timeout: 120_000 }, (err, out, log) => {
        running.delete(child);
        if (err) reject(new Error(`${tool} ${args.join(' ')}: ${log || out || err}`));
        else resolve();
      });
      running.add(child);
    });
  const ctl = (dir: string, port: number, action: 'start' | 'stop', extra: string[] = []) =>
    run('pg_ctl', ctlArgs(dir, port, action, extra));
  // Quick enough for a signal handler (tsx kills its child ~60 ms after a Ctrl-C): SIGQUIT is the
  // immediate shutdown `pg_ctl -m immediate` sends; a detached shell removes the folder once both
  // servers are gone.
  const stop = () => {
    for (const child of running) child.kill('SIGKILL');
    const pids = [replicaDir, primaryDir].map(postmasterOf).filter((pid) => pid > 0);
    for (const pid of pids) process.kill(pid, 'SIGQUIT');
    const removeAfter = 'for p in "$@"; do while kill -0 "$p" 2>/dev/null; do sleep 0.05; done; done; rm -rf "$0"';
    spawn('sh', ['-c', removeAfter, work, ...pids.map(String)], { detached: true, stdio: 'ignore' }).unref();
  };
  const url = (port: number, db: string) => {
    if (!port) throw new Error('the standby cluster is not started');
    return `postgres://postgres@127.0.0.1:${port}/${db}`;
  };
  return {
    async start() {
      // A setup that fails half-way leaves no server running and no folder behind.
      try {
        [primaryPort, replicaPort] = [await freePort(), await freePort()];
        await run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
        const conf = [
          'wal_level = replica',
          'max_wal_senders = 5',
          'hot_standby = on',
          'fsync = off',
          'synchronous_commit = off',
          'full_page_writes = off',
          'shared_buffers = 32MB',
          'max_connections = 60',
          ...(opts.settings ?? []),
        ];
        writeFileSync(path.join(primaryDir, 'postgresql.auto.conf'), `${conf.join('\n')}\n`);
        chownSync(path.join(primaryDir, 'postgresql.auto.conf'), uid, gid);
        await ctl(primaryDir, primaryPort, 'start');
        const at = ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres'];
        await run('createdb', [...at, opts.database ?? 'shop']);
        // A fast checkpoint: the default spread one took half a minute on a loaded machine.
        await run('pg_basebackup', [...at, '-D', replicaDir, '-R', '-X', 'stream', '--checkpoint=fast']);
        await ctl(replicaDir, replicaPort, 'start');
      } catch (err) {
        stop();
        throw err;
      }
    },
    primaryUrl: (db) => url(primaryPort, db),
    replicaUrl: (db) => url(replicaPort, db),
    killReplica: () => ctl(replicaDir, replicaPort, 'stop', ['-m', 'immediate']),
    startReplica: () => ctl(replicaDir, replicaPort, 'start'),
    stop,
  };
}
