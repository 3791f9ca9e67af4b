import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real server processes for the multi-instance and fault tiers: `node --import tsx src/main.ts`
 * (or the compiled dist/main.js, as `npm start` runs it) with its own environment, on a free port, read over HTTP like any client would.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SHARED_SECRETS = {
  JWT_SECRET: 'multi-jwt-secret-0123456789abcdef0123',
  COOKIE_SECRET: 'multi-cookie-secret-0123456789abcdef',
  ENCRYPTION_KEY: 'multi-encryption-key-0123456789abcdef',
};
export const ADMIN = { email: 'ops@example.com', password: 'ops-password-12345' };

/**
 * What `npm start` runs, read from package.json's start script: its environment defaults
 * (`NAME=${NAME:-value}`: the malloc settings) and node's flags before `dist/main.js`, their
 * `${NAME:-value}` defaults filled in. A process
 * measured for memory (the soak) must run with them: without MALLOC_ARENA_MAX, glibc's arenas
 * alone make a busy server's RSS creep for many minutes.
 */
export function npmStartCommand(): { env: Record<string, string>; args: string[] } {
  const script: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const env: Record<string, string> = {};
  const args: string[] = [];
  for (const word of script.split(/\s+/)) {
    const assignment = /^([A-Z_]+)=\$\{\1:-([^}]*)\}$/.exec(word);
    if (assignment) env[assignment[1]] = process.env[assignment[1]] ?? assignment[2];
    else if (word.startsWith('--') || word.endsWith('.js'))
      // A flag's value may be a default too (`--max-semi-space-size=${NODE_SEMI_SPACE_MB:-1}`).
      args.push(
        word.replace(/\$\{([A-Z_]+):-([^}]*)\}/g, (_, name: string, value: string) => process.env[name] ?? value),
      );
    else if (word !== 'node' && word !== 'exec')
      throw new Error(`npm start's script has a word this reader does not know: ${word}`);
  }
  if (args.at(-1) !== 'dist/main.js') throw new Error(`npm start's script does not end with dist/main.js: ${script}`);
  return { env, args };
}

/** A free TCP port on 127.0.0.1 (asked of the OS with port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  name: string;
  url: string;
  port: number;
  proc: ChildProcess;
  /** Every log line so far (pino JSON). */
  logs: string[];
  exited: Promise<number | null>;
  /** JSON over HTTP; `token` as Bearer, `key` as x-publishable-api-key. */
  call(
    method: string,
    url: string,
    body?: unknown,
    opts?: { token?: string; key?: string; headers?: Record<string, string> },
    // biome-ignore lint/suspicious/noExplicitAny: JSON of any route, read by the tests as they need
  ): Promise<{ status: number; body: any; headers: Headers }>;
  signal(sig: NodeJS.Signals): void;
}

export async function startServer(
  name: string,
  env: Record<string, string>,
  /** `compiled`: run dist/main.js as `npm start` does, with its flags and settings (built by `npm run build:server`), instead of src/ through tsx. */
  opts: { waitReady?: boolean; port?: number; compiled?: boolean } = {},
): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const start = opts.compiled ? npmStartCommand() : { env: {}, args: ['--import', 'tsx', 'src/main.ts'] };
  const proc = spawn(process.execPath, start.args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...start.env,
      ...SHARED_SECRETS,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  for (const stream of [proc.stdout, proc.stderr])
    stream?.setEncoding('utf8').on('data', (d: string) => logs.push(...d.split('\n').filter(Boolean)));
  const exited = once(proc, 'exit').then(([code]) => code as number | null);
  const server: ServerProcess = {
    name,
    url,
    port,
    proc,
    logs,
    exited,
    async call(method, route, body, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      if (o.key) headers['x-publishable-api-key'] = o.key;
      const res = await fetch(`${url}${route}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {}
      return { status: res.status, body: parsed, headers: res.headers };
    },
    signal: (sig) => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(sig);
    },
  };
  const until = Date.now() + 90_000;
  const path = opts.waitReady === false ? '/health' : '/ready';
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${name} exited (${proc.exitCode}):\n${logs.slice(-20).join('\n')}`);
    const ok = await fetch(`${url}${path}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return server;
    if (Date.now() > until) {
      server.signal('SIGKILL');
      throw new Error(`${name} did not come up:\n${logs.slice(-20).join('\n')}`);
    }
    await sleep(100);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise and the function that resolves it (Node 20 has no Promise.withResolvers). */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Polls `check` until it returns a truthy value (then returns it) or `ms` pass (then throws). */
export async function eventually<T>(check: () => Promise<T>, ms = 10_000, what = 'condition'): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

export async function adminToken(s: ServerProcess): Promise<string> {
  const res = await s.call('POST', '/auth/user/emailpass', ADMIN);
  if (res.status !== 200) throw new Error(`login on ${s.name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token;
}

export async function publishableKey(s: ServerProcess, token: string): Promise<string> {
  const res = await s.call('GET', '/admin/api-keys?type=publishable', undefined, { token });
  return res.body.api_keys[0].token;
}

/** Stops a process by its own id: SIGTERM, then SIGKILL after `ms`. */
export async function stopServer(s: ServerProcess, ms = 15_000): Promise<number | null> {
  s.signal('SIGTERM');
  const timer = setTimeout(() => s.signal('SIGKILL'), ms);
  const code = await s.exited;
  clearTimeout(timer);
  return code;
}

/** A fresh, empty database `name` on the server of `baseUrl`; returns its URL. */
export async function freshDatabase(baseUrl: string, name: string): Promise<string> {
  const pg = (await import('pg')).default;
  const maintenance = new URL(baseUrl);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Which of these processes holds the TCP connection whose local port is `port` (Linux /proc). */
export function pidOfLocalPort(port: number, pids: number[]): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const out = spawnSync('cat', [file], { encoding: 'utf8' }).stdout ?? '';
    for (const line of out.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`)) inodes.add(cols[9]);
    }
  }
  for (const pid of pids) {
    const fds = spawnSync('ls', ['-l', `/proc/${pid}/fd`], { encoding: 'utf8' }).stdout ?? '';
    for (const inode of inodes) if (fds.includes(`socket:[${inode}]`)) return pid;
  }
  return undefined;
}
