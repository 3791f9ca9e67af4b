import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * The HTTP load generator behind every throughput figure, run as a process of its own for each
 * load, so every measurement gets the same fresh client:
 *
 * - `wrk` (C; Debian's `wrk` package) when it is on the PATH. On a 2-core machine the client
 *   shares the cores with the server, and a 60 KB body costs a Node client about as much as it
 *   costs the server: measured here, autocannon reads a bare Fastify route at ~13,000 req/s
 *   where wrk reads ~40,000. With autocannon the "share of bare Fastify" measures the client.
 * - otherwise autocannon (the npm dependency), in a child process. It used to run inside the
 *   bench's own process, where it sped up over the run: the same bare route read 12,000 req/s in
 *   the first set and 27,000 in the second, which made the share a coin toss (docs/benchmarks.md).
 *
 * `BENCH_CLIENT=wrk|autocannon` picks one.
 */
export type ClientName = 'wrk' | 'autocannon';

export interface Load {
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  non2xx: number;
  errors: number;
}

let chosen: ClientName | undefined;

export function clientName(): ClientName {
  if (chosen) return chosen;
  const asked = process.env.BENCH_CLIENT;
  if (asked && asked !== 'wrk' && asked !== 'autocannon') throw new Error(`BENCH_CLIENT=${asked}: wrk or autocannon`);
  const hasWrk = spawnSync('wrk', ['--version']).error === undefined;
  if (asked === 'wrk' && !hasWrk) throw new Error('BENCH_CLIENT=wrk but wrk is not on the PATH (apt-get install wrk)');
  chosen = (asked as ClientName | undefined) ?? (hasWrk ? 'wrk' : 'autocannon');
  return chosen;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${err}`))));
  });
}

/**
 * `connections` connections against one URL for `seconds`, or for exactly `amount` requests
 * (autocannon only: wrk runs for a time, and a fixed count is only used to warm up before a
 * memory reading, never for a figure).
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  opts: { connections: number; seconds?: number; amount?: number },
): Promise<Load> {
  const result =
    clientName() === 'wrk' && !opts.amount
      ? await withWrk(url, headers, opts)
      : await withAutocannon(url, headers, opts);
  // A figure counted over errors or refusals would measure the wrong thing: it fails the run instead.
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} answers other than 2xx and ${result.errors} errors under load`);
  return result;
}

async function withAutocannon(
  url: string,
  headers: Record<string, string>,
  opts: { connections: number; seconds?: number; amount?: number },
): Promise<Load> {
  const bin = path.join(import.meta.dirname, '..', 'node_modules', 'autocannon', 'autocannon.js');
  const args = [bin, '--json', '--no-progress', '-c', String(opts.connections)];
  args.push(...(opts.amount ? ['-a', String(opts.amount)] : ['-d', String(opts.seconds ?? 10)]));
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const r = JSON.parse(await run(process.execPath, [...args, url]));
  return {
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

async function withWrk(
  url: string,
  headers: Record<string, string>,
  opts: { connections: number; seconds?: number },
): Promise<Load> {
  // wrk's default timeout (2 s) would count a slow server's answers (Medusa's list under load) as errors.
  const args = ['-t1', `-c${opts.connections}`, `-d${opts.seconds ?? 10}s`, '--timeout', '30s', '--latency'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  return parseWrk(await run('wrk', [...args, url]));
}

/** wrk's report: requests/sec, the latency distribution (`--latency`), non-2xx answers and socket errors. */
export function parseWrk(report: string): Load {
  const perSecond = /Requests\/sec:\s+([\d.]+)/.exec(report);
  if (!perSecond) throw new Error(`no Requests/sec in wrk's report:\n${report}`);
  const latency = (p: number) => {
    const m = new RegExp(`^\\s*${p}(?:\\.000)?%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(report);
    if (!m) throw new Error(`no ${p}% latency in wrk's report:\n${report}`);
    const ms = Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2] as 'us' | 'ms' | 's'];
    return +ms.toFixed(2);
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  return {
    'req/s': Math.round(Number(perSecond[1])),
    'p50 ms': latency(50),
    'p99 ms': latency(99),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0),
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}
