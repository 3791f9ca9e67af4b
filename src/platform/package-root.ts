import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The checkout this code runs from: the nearest folder above this file holding a package.json.
 * Found by walking up rather than by a fixed `../..`, because the same code runs from src/ (tsx,
 * tests) and bundled into dist/ (`npm start`), at different depths.
 */
function findPackageRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const PACKAGE_ROOT = findPackageRoot(import.meta.dirname);

/** Emporium's own version (package.json), for the OpenAPI document, user agents and plugin engine checks. */
export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
