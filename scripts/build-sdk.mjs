// `npm run build`: plugin-sdk/ → plugin-sdk/dist (ES modules and .d.ts), the package a plugin
// vendor depends on (`npm pack ./plugin-sdk` → emporium-plugin-sdk-<version>.tgz).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'plugin-sdk', 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
execFileSync(tsc, ['-p', path.join(root, 'plugin-sdk', 'tsconfig.json')], { stdio: 'inherit' });
// The sources import siblings as `./x.ts` (run as is by tsx and vitest); the JavaScript is
// rewritten by tsc, the declarations are not: point them at the emitted `./x.js` too.
for (const file of readdirSync(dist).filter((f) => f.endsWith('.d.ts'))) {
  const full = path.join(dist, file);
  writeFileSync(full, readFileSync(full, 'utf8').replace(/(from\s+'\.\/[\w-]+)\.ts'/g, "$1.js'"));
}
console.log(`Built ${path.relative(root, dist)}`);
