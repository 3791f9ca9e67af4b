import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Load, load } from './client.ts';
import { STARTS, waitFor200 } from './lib.ts';
import { median } from './measure.ts';

/**
 * The Medusa peer (`npm run bench -- --medusa`): a stock Medusa v2.21.2 installed from npm by the
 * shared tool ../shared/tools/medusa-peer.sh (about 3 minutes the first time), on this machine's
 * PostgreSQL, seeded through its admin API with the same catalog shape. Measured with the same
 * load generator as Emporium; its checkout is its storefront's own flow (the tool's checkout.mjs).
 */
// ../shared beside the main checkout; a worktree under wt/ has it one level further up.
const SCRIPT =
  process.env.MEDUSA_PEER_SCRIPT ??
  ['../../shared', '../../../shared']
    .map((up) => path.resolve(import.meta.dirname, up, 'tools/medusa-peer.sh'))
    .find((file) => existsSync(file)) ??
  'medusa-peer.sh';
const ROOT = process.env.MEDUSA_PEER_ROOT ?? '/tmp/medusa-peer';

export interface MedusaResult {
  /** Spawn of `npm start` in the peer's project → first /health 200, median (as ours is measured). */
  startMs: number;
  /** The same through its own binary, `medusa start`, without npm (as ours by `sh`), median. */
  directStartMs: number;
  /** The peer script's own figure (its binary, curl every 100 ms), for reference. */
  peerScriptStartMs: number;
  list: Load;
  byId: Load;
  rssAfter2000: number;
  checkoutMedianMs: number;
}

function peer(command: string, env: Record<string, string>): string {
  return execFileSync('bash', [SCRIPT, command], {
    env: { ...process.env, ...env, MEDUSA_PEER_ROOT: ROOT },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Resident memory of a process and everything below it (Medusa may fork), MiB. */
function treeRssMiB(root: number): number {
  const kids = new Map<number, number[]>();
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {}
  }
  let kb = 0;
  const walk = (pid: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {}
    for (const k of kids.get(pid) ?? []) walk(k);
  };
  walk(root);
  return Math.round(kb / 1024);
}

export async function benchMedusa(opts: {
  products: number;
  port: number;
  connections: number;
  seconds: number;
}): Promise<MedusaResult> {
  const env = { N: String(opts.products), MEDUSA_PEER_PORT: String(opts.port) };
  console.error(`[medusa] resetting the peer (${SCRIPT})`);
  // `reset`: a fresh database with exactly the N products and no orders (a second `setup` on an
  // existing peer can fail its admin login: the tool's stored password and the database disagree).
  peer('reset', env);
  peer('stop', env);
  peer('start', env); // measures its own spawn → first /health 200
  const peerScriptStartMs = Number(/STARTUP_MS=(\d+)/.exec(readFileSync(path.join(ROOT, 'startup.env'), 'utf8'))?.[1]);
  const keys = Object.fromEntries(
    peer('keys', env)
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const base = `http://127.0.0.1:${opts.port}`;
  const store = { 'x-publishable-api-key': keys.PUBLISHABLE_KEY };
  try {
    const list = `${base}/store/products?limit=20`;
    await load(list, store, { connections: opts.connections, amount: 2000 });
    const rssAfter2000 = treeRssMiB(Number(readFileSync(path.join(ROOT, 'server.pid'), 'utf8')));
    const first = (await fetch(`${list}&fields=id`, { headers: store }).then((r) => r.json())) as {
      products: { id: string }[];
    };
    const run = { connections: opts.connections, seconds: opts.seconds };
    const result = {
      startMs: 0,
      directStartMs: 0,
      peerScriptStartMs,
      rssAfter2000,
      list: await load(list, store, run),
      byId: await load(`${base}/store/products/${first.products[0].id}`, store, run),
      checkoutMedianMs: 0,
    };
    const out = execFileSync('node', [path.join(ROOT, 'checkout.mjs')], {
      env: { ...process.env, BASE: base, PUBLISHABLE_KEY: keys.PUBLISHABLE_KEY, REGION_ID: keys.REGION_ID, RUNS: '20' },
      encoding: 'utf8',
    });
    result.checkoutMedianMs = JSON.parse(out).median_ms;
    peer('stop', env);
    Object.assign(result, await medusaStarts(opts.port));
    return result;
  } finally {
    peer('stop', env);
  }
}

/**
 * Medusa's start measured as ours is (bench/backend.ts): `npm start` in its project (whose start
 * script is `medusa start`) and its binary without npm, three times each taking turns, spawn →
 * first /health 200 polled every 5 ms by the same function; medians. The peer script's own figure
 * polls with curl every 100 ms, which reads up to ~100 ms late.
 */
async function medusaStarts(port: number): Promise<{ startMs: number; directStartMs: number }> {
  const app = path.join(ROOT, 'app');
  const args = ['start', '-H', '127.0.0.1', '-p', String(port)];
  const viaNpm: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    viaNpm.push(await timedStart(app, port, 'npm', ['start', '--silent', '--', ...args.slice(1)]));
    direct.push(await timedStart(app, port, './node_modules/.bin/medusa', args));
  }
  console.error(`[medusa] starts through npm ${viaNpm.map(Math.round)} ms, its binary ${direct.map(Math.round)} ms`);
  return { startMs: median(viaNpm), directStartMs: median(direct) };
}

async function timedStart(cwd: string, port: number, command: string, args: string[]): Promise<number> {
  const t0 = performance.now();
  const proc = spawn(command, args, {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', MEDUSA_DISABLE_TELEMETRY: 'true' },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  try {
    return await waitFor200(`http://127.0.0.1:${port}/health`, t0, { deadlineMs: 60_000 });
  } finally {
    process.kill(-proc.pid!, 'SIGTERM');
    await exited;
    // Its port must be free before the next start, or that start would find this one answering.
    while (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        () => true,
        () => false,
      )
    )
      await new Promise((r) => setTimeout(r, 20));
  }
}
