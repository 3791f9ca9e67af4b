#!/usr/bin/env node
// `npm test`: the whole vitest suite, then a plain "N passed, N failed" line for CI logs.
// With DATABASE_URL set the same suite runs against that PostgreSQL server instead of PGlite.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// One report per tier: the browser tier runs beside the fault and multi-instance tiers (.ci/run),
// and one shared file would be removed and rewritten under another tier's feet.
const out = process.env.TEST_LABEL ? `.test-results-${process.env.TEST_LABEL}.json` : '.test-results.json';
rmSync(out, { force: true });
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
  ...process.argv.slice(2),
];
// The suite's data dirs, plugin packages and unpacked examples go under one directory of this
// run (TMPDIR), removed afterwards: a CI machine that runs the suite every day keeps nothing.
// Readable by others: the fault tier's throwaway PostgreSQL runs as the postgres user under it.
const scratch = mkdtempSync(path.join(tmpdir(), 'emporium-test-run-'));
chmodSync(scratch, 0o755);
const run = spawnSync('npx', args, {
  stdio: 'inherit',
  env: { ...process.env, NO_COLOR: '1', CI: process.env.CI ?? 'true', TMPDIR: scratch },
});
rmSync(scratch, { recursive: true, force: true });
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(out)) {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests;
  skipped = r.numPendingTests + (r.numTodoTests ?? 0);
}
const where = process.env.TEST_LABEL ?? (process.env.DATABASE_URL ? 'postgres' : 'pglite');
console.log(`\n${where}: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(run.status ?? 1);
