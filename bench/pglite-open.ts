/**
 * The embedded database's open phase (`loaded` → `opened` in the start line) taken apart, beside
 * the machine's calibration: `node -e 0`, `npm run` of a script that is `true`, and the open of
 * PGlite alone, each five times, medians.
 *
 *   npm run bench:pglite-open                       # a fresh data dir made by one open first
 *   npm run bench:pglite-open -- --data-dir .data   # an existing one (stop its server first)
 *
 * Each open runs in a process of its own (as a start does): import PGlite, compile its wasm,
 * `PGlite.create` (the PostgreSQL backend starting, and its first exchange, which rebuilds the
 * relation cache's init files PostgreSQL removes at every start), the first query, close.
 * Interleaved with them, the same opens of a copy of the data dir whose process each time exits
 * without closing it (as a server killed, or left running by its launcher and killed later, does):
 * every open of that copy is PostgreSQL's crash recovery.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
// 'crash': exit as a killed server does, without PostgreSQL's shutdown checkpoint.
if (process.argv[3] === 'crash') { console.log(JSON.stringify(out)); process.exit(0); }
await db.close();
lap('closed');
console.log(JSON.stringify(out));
`;

function timed(command: string, args: string[], cwd?: string): number {
  const start = performance.now();
  execFileSync(command, args, { stdio: 'ignore', cwd });
  return performance.now() - start;
}

const work = mkdtempSync(path.join(tmpdir(), 'emporium-pglite-open-'));
try {
  const child = path.join(work, 'open.mjs');
  writeFileSync(child, CHILD);
  const dataDir = opts['data-dir'] ? path.resolve(opts['data-dir'], 'pglite') : path.join(work, 'pglite');
  if (!opts['data-dir']) spawnSync(process.execPath, [child, dataDir], { stdio: 'ignore' }); // initdb once
  const crashedDir = path.join(work, 'crashed');
  cpSync(dataDir, crashedDir, { recursive: true });
  // A package whose script is `true`: what npm itself adds to `npm start`.
  writeFileSync(path.join(work, 'package.json'), '{"name":"t","version":"0.0.0","scripts":{"true":"true"}}');
  const open = (dir: string, how: 'close' | 'crash') => {
    const out = execFileSync(process.execPath, [child, dir, how], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
  };
  open(crashedDir, 'crash'); // its first open below is a recovery too
  const calibration: number[] = [];
  const npmRuns: number[] = [];
  const clean: Record<string, number>[] = [];
  const crashed: Record<string, number>[] = [];
  for (let i = 0; i < RUNS; i++) {
    calibration.push(timed(process.execPath, ['-e', '0']));
    npmRuns.push(timed('npm', ['run', '--silent', 'true'], work));
    clean.push(open(dataDir, 'close'));
    crashed.push(open(crashedDir, 'crash'));
  }
  const phase = (runs: Record<string, number>[], k: string) => median(runs.map((o) => o[k]));
  const column = (runs: Record<string, number>[]) => ({
    'PGlite imported': phase(runs, 'imported'),
    'wasm compiled': phase(runs, 'wasm compiled'),
    'PGlite.create done': phase(runs, 'created'),
    'first query': phase(runs, 'first query'),
    'create ÷ node -e 0': +((phase(runs, 'created') - phase(runs, 'wasm compiled')) / median(calibration)).toFixed(1),
  });
  console.log(
    `node -e 0: ${Math.round(median(calibration))} ms, npm run (a script that is true): ${Math.round(median(npmRuns))} ms (medians of ${RUNS})`,
  );
  console.table({ 'closed cleanly (ms, median)': column(clean), 'after a crash (ms, median)': column(crashed) });
  console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
