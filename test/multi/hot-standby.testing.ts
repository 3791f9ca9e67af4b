import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../processes.ts';

/**
 * A throwaway PostgreSQL primary and a hot standby of it, made with the machine's own binaries
 * (PG_BIN, else /usr/lib/postgresql/<newest>/bin) as the postgres OS user, each in a temp dir on a port of its
 * own: initdb with wal_level=replica, then `pg_basebackup -R` (which writes standby.signal and
 * primary_conninfo). Both accept anyone from 127.0.0.1 (trust): they live for one test file.
 */
export interface Standby {
  primaryUrl(db: string): string;
  replicaUrl(db: string): string;
  /** Stops the replica at once (as a crash would). */
  killReplica(): Promise<void>;
  startReplica(): Promise<void>;
  stop(): void;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

export async function startStandby(): Promise<Standby> {
  const bin = binDir();
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  const work = mkdtempSync(path.join(tmpdir(), 'emporium-standby-'));
  chownSync(work, uid, gid);
  const primaryDir = path.join(work, 'primary');
  const replicaDir = path.join(work, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const run = (tool: string, args: string[]) => {
    const res = spawnSync(path.join(bin, tool), args, { uid, gid, cwd: work, encoding: 'utf8', timeout: 120_000 });
    if (res.status !== 0) throw new Error(`${tool} ${args.join(' ')}: ${res.stderr || res.stdout || res.error}`);
  };
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
  const ctl = (dir: string, port: number, action: 'start' | 'stop', extra: string[] = []) =>
    run('pg_ctl', ctlArgs(dir, port, action, extra));
  // Without blocking the test's own event loop: the load it drives goes on meanwhile.
  const ctlAsync = async (dir: string, port: number, action: 'start' | 'stop', extra: string[] = []) => {
    await promisify(execFile)(path.join(bin, 'pg_ctl'), ctlArgs(dir, port, action, extra), { uid, gid, cwd: work });
  };
  run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const conf = [
    'wal_level = replica',
    'max_wal_senders = 5',
    'hot_standby = on',
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
    'shared_buffers = 32MB',
    'max_connections = 60',
  ];
  writeFileSync(path.join(primaryDir, 'postgresql.auto.conf'), `${conf.join('\n')}\n`);
  chownSync(path.join(primaryDir, 'postgresql.auto.conf'), uid, gid);
  ctl(primaryDir, primaryPort, 'start');
  run('createdb', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', 'shop']);
  run('pg_basebackup', [
    '-h',
    '127.0.0.1',
    '-p',
    String(primaryPort),
    '-U',
    'postgres',
    '-D',
    replicaDir,
    '-R',
    '-X',
    'stream',
  ]);
  ctl(replicaDir, replicaPort, 'start');
  const url = (port: number, db: string) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  return {
    primaryUrl: (db) => url(primaryPort, db),
    replicaUrl: (db) => url(replicaPort, db),
    killReplica: () => ctlAsync(replicaDir, replicaPort, 'stop', ['-m', 'immediate']),
    startReplica: () => ctlAsync(replicaDir, replicaPort, 'start'),
    stop: () => {
      for (const [dir, port] of [
        [replicaDir, replicaPort],
        [primaryDir, primaryPort],
      ] as const) {
        try {
          ctl(dir, port, 'stop', ['-m', 'immediate']);
        } catch {}
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}
