#!/usr/bin/env node
// `npm run build:server` (run by `npm install` through `prepare`): compiles the server once into
// dist/, so `npm start` runs JavaScript and never transpiles TypeScript at start-up (issue 11).
// src/ stays runnable as it is (tsx) for tests and development.
//
//   node scripts/build-server.mjs [outdir]      default dist/ (must sit inside this checkout)
import path from 'node:path';
import { rmSync } from 'node:fs';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.resolve(root, process.argv[2] ?? 'dist');

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

rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
await esbuild.build({
  absWorkingDir: root,
  entryPoints: { main: 'src/main.ts' },
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
console.log(`server built into ${path.relative(root, outdir) || '.'} in ${Math.round(performance.now() - started)} ms`);
