/**
 * Build step (scripts/build-server.mjs runs its compiled form): creates the embedded database
 * template of pglite-template.ts — initdb, then every migration, nothing else.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openPglite } from './database.ts';
import { installPgliteTemplate, PGLITE_TEMPLATE } from './pglite-template.ts';

const work = mkdtempSync(path.join(path.dirname(PGLITE_TEMPLATE), '.pglite-template-'));
try {
  const database = await openPglite(work, { noTemplate: true });
  await database.migrate();
  await database.close();
  installPgliteTemplate(path.join(work, 'pglite'));
} finally {
  rmSync(work, { recursive: true, force: true });
}
