/**
 * The embedded database's open phase (`loaded` → `opened` in the start line) taken apart, beside
 * the machine's calibration: `node -e 0` and the open of PGlite alone, each five times, medians.
 *
 *   npm run bench:pglite-open                       # a fresh data dir made by one open first
 *   npm run bench:pglite-open -- --data-dir .data   # an existing one (stop its server first)
 *
 * Each open runs in a process of its own (as a start does): import PGlite, compile its wasm,
 * `PGlite.create` (the PostgreSQL backend starting, and its first exchange, which rebuilds the
 * relation cache's init files PostgreSQL removes at every start), the first query, close.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './measure.ts';

const { values: opts } = parseArgs({
  options: { 'data-dir': { type: 'string' }, runs: { type: 'string', default: '5' } },
});
const RUNS = Number(opts.runs);
const ROOT = path.resolve(import.meta.dirname, '..');

// The child: the same calls as platform/db/database.ts openPglite, timed.
const CHILD = `
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const t0 = performance.now();
const out = {};
const lap = (m) => { out[m] = Math.round(performance.now() - t0); };
const dir = path.dirname(createRequire(${JSON.stringify(`${ROOT}/`)}).resolve('@electric-sql/pglite'));
const wasm = WebAssembly.compile(readFileSync(path.join(dir, 'pglite.wasm')));
const bundle = readFileSync(path.join(dir, 'pglite.data'));
const { PGlite } = await import(pathToFileURL(path.join(dir, 'index.js')).href);
lap('imported');
const mod = await wasm;
lap('wasm compiled');
const pg_trgm = { name: 'pg_trgm', setup: async () => ({ bundlePath: pathToFileURL(path.join(dir, 'pg_trgm.tar.gz')) }) };
const db = await PGlite.create(process.argv[2], {
  pgliteWasmModule: mod,
  fsBundle: { arrayBuffer: async () => bundle.buffer },
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB', '-c', 'max_connections=10'],
});
lap('created');
await db.query('select 1');
lap('first query');
await db.close();
lap('closed');
console.log(JSON.stringify(out));
`;

function timed(args: string[]): number {
  const start = performance.now();
  execFileSync(process.execPath, args, { stdio: 'ignore' });
  return performance.now() - start;
}

const work = mkdtempSync(path.join(tmpdir(), 'emporium-pglite-open-'));
try {
  const child = path.join(work, 'open.mjs');
  writeFileSync(child, CHILD);
  const dataDir = opts['data-dir'] ? path.resolve(opts['data-dir'], 'pglite') : path.join(work, 'pglite');
  if (!opts['data-dir']) spawnSync(process.execPath, [child, dataDir], { stdio: 'ignore' }); // initdb once
  const calibration = Array.from({ length: RUNS }, () => timed(['-e', '0']));
  const opens = Array.from({ length: RUNS }, () => {
    const out = execFileSync(process.execPath, [child, dataDir], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  });
  const phase = (k: string) => median(opens.map((o) => o[k]));
  console.table({
    'node -e 0 (ms, median)': Math.round(median(calibration)),
    'PGlite imported': phase('imported'),
    'wasm compiled': phase('wasm compiled'),
    'PGlite.create done': phase('created'),
    'first query': phase('first query'),
    'create ÷ node -e 0': +((phase('created') - phase('wasm compiled')) / median(calibration)).toFixed(1),
    'load average': execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' '),
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
