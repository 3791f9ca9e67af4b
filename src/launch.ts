/**
 * What `npm start` runs (built into dist/main.js): the server bundle dist/server.cjs (src/main.ts),
 * through V8's code cache (platform/code-cache.ts).
 */
import path from 'node:path';
import { loadWithCodeCache } from './platform/code-cache.ts';

// One cache per database kind (config.ts: DATABASE_URL set means PostgreSQL): the two starts
// compile different code.
loadWithCodeCache(path.join(import.meta.dirname, 'server.cjs'), process.env.DATABASE_URL ? 'postgres' : 'pglite');
