import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pg from 'pg';

/**
 * Shared by the benchmark scripts. The server is always the real one, started the way a user
 * starts it (`npm start`), as a child process on its own data; every row it serves was created
 * through its HTTP API (seed.ts). Nothing here writes to the database or maintains it.
 */
export const ROOT = path.resolve(import.meta.dirname, '..');
export const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

/** A start is one sample of a noisy figure (single starts through npm varied by 0.1-0.3 s): the median of this many is reported. */
export const STARTS = 3;

/**
 * With DATABASE_URL set, a freshly recreated, empty database `name` on that server (its URL);
 * without, undefined (the server then uses PGlite in the data dir it is given).
 */
/** `BENCH_DB_SUFFIX` keeps benches run side by side on one server apart (`emporium_bench_<suffix>`). */
export async function freshBenchDatabase(baseName: string): Promise<string | undefined> {
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  const suffix = process.env.BENCH_DB_SUFFIX?.replace(/[^a-z0-9_]/g, '');
  const name = suffix ? `${baseName}_${suffix}` : baseName;
  const url = new URL(base);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * With DATABASE_URL set, the database `name` on that server as it is (made when missing): a
 * benchmark's `--reuse` of a shop seeded before. Without, undefined (PGlite: reuse its data dir).
 */
export async function keptBenchDatabase(baseName: string): Promise<string | undefined> {
  const base = process.env.DATABASE_URL;
  if (!base) return undefined;
  const suffix = process.env.BENCH_DB_SUFFIX?.replace(/[^a-z0-9_]/g, '');
  const name = suffix ? `${baseName}_${suffix}` : baseName;
  const url = new URL(base);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const found = await client.query('select 1 from pg_database where datname = $1', [name]);
  if (!found.rowCount) await client.query(`create database ${name}`);
  await client.end();
  url.pathname = `/${name}`;
  return url.toString();
}

export interface Server {
  proc: ChildProcess;
  /** The Node process serving HTTP (npm's grandchild), for RSS and CPU. */
  pid(): number;
  /** Everything the server printed so far. */
  output: string[];
  stop(): Promise<void>;
}

/** package.json's start script: what `npm start` hands to the shell. */
const startScript = (): string => JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;

/**
 * `npm start` in the checkout, in its own process group, with the default log settings. It runs
 * the compiled server (dist/): run `npm install` (or `npm run build:server`) after changing src/.
 * `direct`: the same start script run by the shell without npm (as Medusa's peer is started: its
 * own binary), for a like-for-like start-up ratio. `root`: another checkout's server (an A/B).
 */
export function startServer(
  port: number,
  env: Record<string, string>,
  opts: { direct?: boolean; root?: string } = {},
): Server {
  const [command, args] = opts.direct ? ['sh', ['-c', startScript()]] : ['npm', ['start', '--silent']];
  const proc = spawn(command, args, {
    cwd: opts.root ?? ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output: string[] = [];
  // BENCH_SERVER_LOG=<file>: the server's log also goes there (what it warned about under load).
  const log = process.env.BENCH_SERVER_LOG ? createWriteStream(process.env.BENCH_SERVER_LOG, { flags: 'a' }) : null;
  for (const stream of [proc.stdout, proc.stderr])
    stream?.setEncoding('utf8').on('data', (d) => {
      output.push(d);
      log?.write(d);
    });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let serverPid = 0;
  return {
    proc,
    output,
    pid() {
      serverPid ||= descendants(proc.pid!).find((p) => isNode(p) && cmdline(p).includes('dist/main.js')) ?? 0;
      if (!serverPid) throw new Error('no server process under npm start');
      return serverPid;
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const node = serverPid || descendants(proc.pid!).find((p) => isNode(p) && cmdline(p).includes('dist/main.js'));
      process.kill(-proc.pid!, 'SIGTERM');
      await exited;
      // npm may exit before the server has closed: the next start must not find the old one answering.
      while (node && existsSync(`/proc/${node}`)) await new Promise((r) => setTimeout(r, 10));
    },
  };
}

/** The node process itself, not the shell npm runs the script in. */
function isNode(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node';
  } catch {
    return false;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Every process below `root` (Linux /proc). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch {
      // ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

/** Polls `url` until it answers 200; the milliseconds that took from `since`. */
export async function waitFor200(
  url: string,
  since: number,
  opts: { headers?: Record<string, string>; server?: Server; deadlineMs?: number } = {},
): Promise<number> {
  const deadline = since + (opts.deadlineMs ?? 120_000);
  for (;;) {
    const status = await fetch(url, { headers: opts.headers }).then(
      (r) => r.arrayBuffer().then(() => r.status),
      () => 0,
    );
    if (status === 200) return performance.now() - since;
    if (opts.server && opts.server.proc.exitCode !== null)
      throw new Error(`server exited:\n${opts.server.output.join('').slice(-2000)}`);
    if (performance.now() > deadline) throw new Error(`no 200 from ${url}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** CPU time (user + system) a process has used, in ms (Linux /proc, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Waits until `pid` uses (almost) no CPU: at most 20 ms in a 500 ms window, or `maxMs`. After a
 * load, PGlite's server goes on optimising its wasm on a background thread for a while; a
 * reference measured meanwhile would share the cores with it and make the server look better.
 */
export async function untilIdle(pid: number, maxMs = 30_000): Promise<void> {
  const deadline = performance.now() + maxMs;
  let before = cpuMs(pid);
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuMs(pid);
    if (now - before <= 20) return;
    before = now;
  }
}

export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

/** CPU time (ms) a process has used so far: user and system, from /proc (10 ms ticks). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

// Plain node:http with keep-alive: the load generator shares the cores with the server, so it should be cheap.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** JSON over HTTP. */
export function call(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  /** `read: false`: a 2xx answer is received whole but not parsed (`json` is `{}`): the caller does not use it. */
  opts: { read?: boolean } = {},
  // biome-ignore lint/suspicious/noExplicitAny: the benchmark reads whatever JSON the server answers
): Promise<{ status: number; json: Record<string, any> }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${url}`,
      {
        method,
        agent,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ok = res.statusCode! >= 200 && res.statusCode! < 300;
          if (opts.read === false && ok) return resolve({ status: res.statusCode!, json: {} });
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : {} });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export async function expectOk(p: ReturnType<typeof call>) {
  const res = await p;
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json;
}

export function closeAgent(): void {
  agent.destroy();
}

/** The publishable key the server prints on its first start (just after it starts listening). */
export async function publishableKeyOf(server: Server): Promise<string> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    const key = /Publishable key \(x-publishable-api-key\): (pk_\w+)/.exec(server.output.join(''))?.[1];
    if (key) return key;
    if (performance.now() > deadline)
      throw new Error(`no publishable key in the server's output:\n${server.output.join('').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
