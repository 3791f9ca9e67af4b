/**
 * Everything main.ts needs besides config and the database, behind one dynamic import so the
 * build emits it as one chunk, loaded while the database opens: the two overlap instead of adding up.
 */
export { buildApp } from './app.ts';
export { bootstrap, newShopHint } from './bootstrap.ts';
export { createWorkers } from './workers.ts';
export { installShutdown } from './shutdown.ts';
export { serveBackups } from './platform/db/backup.ts';
