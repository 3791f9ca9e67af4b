import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding the child runner (`runner.mjs` and what it imports). Beside this file in
 * src/; a compiled bundle (esbuild to dist/) either copies `child/` to the same relative place or
 * sets PLUGIN_RUNNER_DIR (config `pluginRunnerDir`), which wins over this default.
 */
export const DEFAULT_RUNNER_DIR = fileURLToPath(new URL('./child/', import.meta.url));

export function runnerFile(dir: string | undefined): string {
  return path.join(dir || DEFAULT_RUNNER_DIR, 'runner.mjs');
}
