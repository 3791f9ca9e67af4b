import path from 'node:path';
import { PACKAGE_ROOT } from '../../../platform/package-root.ts';

/**
 * The folder holding the child runner (`runner.mjs` and what it imports): plain JavaScript kept in
 * src/ and run as is, found from the checkout's root so the same path holds for src/ (tsx, tests)
 * and for the bundle in dist/ (`npm start`), whose chunks sit at other depths.
 * PLUGIN_RUNNER_DIR (config `pluginRunnerDir`) wins over this default.
 */
export const DEFAULT_RUNNER_DIR = path.join(PACKAGE_ROOT, 'src', 'modules', 'plugins', 'sandbox', 'child');

export function runnerFile(dir: string | undefined): string {
  return path.join(dir || DEFAULT_RUNNER_DIR, 'runner.mjs');
}
