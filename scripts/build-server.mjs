#!/usr/bin/env node
// `npm run build:server` (run by `npm install` through `prepare`): compiles the server once into
// dist/, so `npm start` runs JavaScript and never transpiles TypeScript at start-up (issue 11).
// src/ stays runnable as it is (tsx) for tests and development.
// It also creates dist/pglite-template: an empty, migrated embedded database that a first start
// on an empty DATA_DIR copies instead of running initdb (src/platform/db/pglite-template.ts).
//
//   node scripts/build-server.mjs [--no-template]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist');

/**
 * Left to Node at run time instead of bundled: native addons, packages that find their own files
 * next to their code (PGlite's wasm and data files, the docs UI's static files), the compiler the
 * plugin packer drives, and optional packages that are not installed.
 */
const external = [
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  '@node-rs/argon2',
  'esbuild',
  'fs-native-extensions',
  'pg-native',
  'pino',
  'stripe',
];

const template = !process.argv.includes('--no-template');
// A rebuild without a new template keeps the one there is.
for (const entry of existsSync(outdir) ? readdirSync(outdir) : [])
  if (template || entry !== 'pglite-template') rmSync(path.join(outdir, entry), { recursive: true, force: true });
const started = performance.now();
await esbuild.build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts', 'make-pglite-template': 'src/platform/db/make-pglite-template.ts' },
  outdir,
  bundle: true,
  // Each `await import()` of the code (docs UI, Stripe, the marketplace role…) becomes its own chunk,
  // loaded only when that code runs.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Bundled CommonJS libraries call require() for Node's built-ins; an ES module has none of its own.
  banner: {
    js: "import { createRequire as __emporiumRequire } from 'node:module'; const require = __emporiumRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
if (template) execFileSync(process.execPath, [path.join(outdir, 'make-pglite-template.js')], { stdio: 'inherit' });
console.log(`server built into dist/ in ${Math.round(performance.now() - started)} ms`);
