#!/usr/bin/env node
// `npm run build:server` (run by `npm install` through `prepare`): compiles the server once into
// dist/, so `npm start` runs JavaScript and never transpiles TypeScript at start-up.
// src/ stays runnable as it is (tsx) for tests and development.
//
//   dist/server.cjs   the whole server (src/main.ts) in one CommonJS file
//   dist/main.js      what `npm start` runs: server.cjs through V8's code cache (src/launch.ts,
//                     src/platform/code-cache.ts; the cache is written in dist/.code-cache/)
//   dist/pglite-template  an empty, migrated embedded database that a first start on an empty
//                     DATA_DIR copies instead of running initdb (src/platform/db/pglite-template.ts)
//
//   node scripts/build-server.mjs [--no-template]
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist');

/**
 * Left to Node at run time instead of bundled: native addons, packages that find their own files
 * next to their code (the docs UI's static files), the compiler the plugin packer drives, and
 * optional packages that are not installed. (pino is bundled: only its transports, which the
 * server does not use, load a file of their own, in a worker thread. PGlite is bundled too: the
 * server hands it its wasm, file bundle and extension files, src/platform/db/database.ts.)
 */
const external = [
  '@fastify/swagger-ui',
  '@node-rs/argon2',
  'esbuild',
  'fs-native-extensions',
  // The plugin SQL guard's parser (src/modules/plugins/sql-guard.ts): finds its wasm next to its own
  // code, and loads only when a plugin first runs SQL.
  'libpg-query',
  'pg-native',
  // LOG_FORMAT=pretty only (src/platform/log-format.ts): a JSON start neither loads nor keeps its code.
  'pino-pretty',
  'stripe',
  // Emscripten's socket server in PGlite's glue; PGlite never listens on a socket.
  'ws',
];

/**
 * pg asks at import whether it runs on Cloudflare Workers by building a `Response`, which on
 * Node 20 (no `navigator`) loads undici: ~25 ms of every PostgreSQL start for a question whose
 * answer here is always no. The bundle keeps only the navigator test.
 */
const nodeOnlyPg = {
  name: 'node-only-pg',
  setup(build) {
    build.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const probe = "if (typeof Response === 'function') {";
      if (!source.includes(probe))
        return { contents: source, warnings: [{ text: 'pg changed: its Cloudflare probe is bundled as is' }] };
      return { contents: source.replace(probe, 'if (false) {'), loader: 'js' };
    });
  },
};

/**
 * PGlite's Emscripten glue makes itself a `require` with `await import('node:module')` and a `var
 * require` of its own. Bundled as CommonJS that import becomes a call of the glue's own `var require`
 * before it is assigned; the bundle's `require` does the same job.
 */
const pgliteOwnRequire = {
  name: 'pglite-own-require',
  setup(build) {
    let found = 0;
    build.onLoad({ filter: /[\\/]@electric-sql[\\/]pglite[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const own = /let\{createRequire:(\w+)\}=await import\("node:module"\);var require=\1\(import\.meta\.url\)/g;
      const contents = source.replace(own, '');
      if (contents !== source) found++;
      return { contents, loader: 'js' };
    });
    // test/compiled-server.test.ts starts the bundle on PGlite and would fail; this says why.
    build.onEnd(() => {
      if (!found) console.warn("pglite changed: its glue's own require was not found, the bundle may not open PGlite");
    });
  },
};

const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  external,
  // Less for V8 to scan and parse at start-up; names are kept, so stack traces still read.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
};

const template = !process.argv.includes('--no-template');
// A rebuild without a new template keeps the one there is (and drops the old code cache).
for (const entry of existsSync(outdir) ? readdirSync(outdir) : [])
  if (template || entry !== 'pglite-template') rmSync(path.join(outdir, entry), { recursive: true, force: true });
const started = performance.now();
await Promise.all([
  // One CommonJS file, because V8's code cache (what makes a start cheap, platform/code-cache.ts)
  // is reachable from Node 20 only for scripts. Code imported with `await import()` is still only
  // run when first needed; the import becomes a require, which code taken from a cache can do.
  esbuild.build({
    ...common,
    entryPoints: { server: 'src/main.ts' },
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    supported: { 'dynamic-import': false },
    banner: { js: 'var __importMetaUrl=require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': '__importMetaUrl', 'import.meta.dirname': '__dirname' },
    plugins: [nodeOnlyPg, pgliteOwnRequire],
  }),
  esbuild.build({
    ...common,
    entryPoints: { main: 'src/launch.ts', 'make-pglite-template': 'src/platform/db/make-pglite-template.ts' },
    format: 'esm',
    // As ES modules, the lazily imported drizzle code is evaluated in import order only when split out.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // Bundled CommonJS libraries call require() for Node's built-ins; an ES module has none of its own.
    banner: {
      js: "import { createRequire as __emporiumRequire } from 'node:module'; const require = __emporiumRequire(import.meta.url);",
    },
  }),
]);
if (template) execFileSync(process.execPath, [path.join(outdir, 'make-pglite-template.js')], { stdio: 'inherit' });
console.log(`server built into dist/ in ${Math.round(performance.now() - started)} ms`);
