import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from './processes.ts';

/**
 * A service manager, a container runtime or a script stops `npm start` by signalling npm. npm
 * forwards the signal to the shell running the start script; unless that shell has exec'd node,
 * the shell dies and the server is left running, orphaned, holding the data dir (and whoever then
 * kills it hard leaves a database that the next start must recover). The start script execs node,
 * so the server itself gets the signal and closes PGlite cleanly.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
let dataDir: string;

beforeAll(() => {
  if (!existsSync(path.join(ROOT, 'dist', 'main.js')))
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'pipe' });
  dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-npm-stop-'));
}, 180_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const children = (pid: number) => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map(Number)
      .filter(Boolean);
  } catch {
    return []; // ps exits 1 when there is none
  }
};

/** PostgreSQL's control file: the cluster's state is the int32 at offset 16; 1 is "shut down" (DB_SHUTDOWNED). */
const clusterState = () => readFileSync(path.join(dataDir, 'pglite', 'global', 'pg_control')).readInt32LE(16);
const SHUT_DOWN = 1;

describe('npm start, stopped through npm', () => {
  it('SIGTERM to npm reaches the server, which closes the database cleanly and exits', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
      stdio: 'ignore',
      // Its own process group: the cleanup below reaches an orphaned server too.
      detached: true,
    });
    const npmExited = new Promise((resolve) => npm.once('exit', resolve));
    try {
      await eventually(
        async () => (await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.ok || undefined,
        60_000,
        'the first /health 200',
      );
      // npm's only child is the server itself: the shell exec'd node.
      const [server] = children(npm.pid!);
      const [command, ...args] = readFileSync(`/proc/${server}/cmdline`, 'utf8').split('\0');
      expect(path.basename(command)).toBe('node');
      expect(args).toContain('dist/main.js');

      npm.kill('SIGTERM');
      await npmExited;
      await eventually(async () => !alive(server) || undefined, 20_000, 'the server to exit');
      // The shutdown checkpoint was written: the next open replays nothing.
      expect(clusterState()).toBe(SHUT_DOWN);
    } finally {
      // An orphaned server (the failure this test is about) would keep the data dir open: it keeps npm's group.
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // the group is gone: everything in it exited
      }
    }
  }, 120_000);
});
