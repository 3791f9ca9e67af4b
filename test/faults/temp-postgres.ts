import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl in a temp folder, on a port it picks),
 * so a test may stop and start it without touching the machine's shared server. As root the
 * tools run as the `postgres` user (initdb refuses root).
 */
export interface TempPostgres {
  url: string;
  start(): void;
  stop(): void;
  destroy(): void;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  return path.join('/usr/lib/postgresql', versions[0], 'bin');
}

export function createTempPostgres(port: number): TempPostgres {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'emporium-pg-'));
  if (root) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout);
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout);
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const run = (tool: string, args: string[]) => {
    const cmd = root ? 'runuser' : path.join(bin, tool);
    const argv = root ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
    const res = spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir });
    if (res.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${res.stderr || res.stdout}`);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pg: TempPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']),
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    destroy: () => {
      if (existsSync(path.join(data, 'postmaster.pid'))) {
        try {
          pg.stop();
        } catch {}
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  pg.start();
  return pg;
}
