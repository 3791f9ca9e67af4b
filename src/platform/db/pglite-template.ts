import { cpSync, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';

/**
 * Creating an embedded database (PostgreSQL's initdb, in wasm) costs several seconds of CPU; a
 * copy of one takes milliseconds. `npm run build:server` (run by `npm install`) creates one empty,
 * migrated database here, and a first start on an empty DATA_DIR copies it. It holds
 * no instance data: the admin, keys and secrets are made per instance at first start, as before.
 */
export const PGLITE_TEMPLATE = path.join(PACKAGE_ROOT, 'dist', 'pglite-template');

/** Fills an absent or empty `target` from the template; false when there is none to copy. */
export function copyPgliteTemplate(target: string, template = PGLITE_TEMPLATE): boolean {
  if (existsSync(target) && readdirSync(target).length) return false;
  if (!existsSync(path.join(template, 'PG_VERSION'))) return false;
  cpSync(template, target, { recursive: true });
  return true;
}

/** Undoes a copy the database refused (a template left by another PGlite version): it is then created anew. */
export function discardPgliteCopy(target: string): void {
  rmSync(target, { recursive: true, force: true });
}

/** A file PostgreSQL ignores, left in every database made from the template (says where it came from). */
export const TEMPLATE_MARKER = 'EMPORIUM_TEMPLATE';

/** Puts a freshly created database folder in place as the template (build time). */
export function installPgliteTemplate(created: string, template = PGLITE_TEMPLATE): void {
  writeFileSync(path.join(created, TEMPLATE_MARKER), `created ${new Date().toISOString()}\n`);
  rmSync(template, { recursive: true, force: true });
  renameSync(created, template);
}
