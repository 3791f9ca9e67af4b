import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { UsageError } from './usage-error.ts';

/** plugin-sdk/ of this Emporium (built into dist/ by `npm run build`, also run by `npm ci`). */
export const SDK_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../plugin-sdk');

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148); // checksum counted as spaces
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

/** A gzipped tar with every file under `package/`, as `npm pack` writes it (mtime 0: deterministic). */
function npmTarball(files: { name: string; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(header(`package/${f.name}`, f.data.length), f.data, Buffer.alloc((512 - (f.data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

/**
 * `@emporium/plugin-sdk` as an npm tarball (what `npm pack ./plugin-sdk` gives): package.json,
 * README.md and dist/. Returns its file name and bytes. Needs the built dist/.
 */
export function sdkTarball(): { filename: string; bytes: Buffer } {
  const dist = path.join(SDK_DIR, 'dist');
  if (!existsSync(path.join(dist, 'index.js')))
    throw new UsageError(`The plugin SDK is not built (${dist}); run \`npm run build\` in Emporium first`);
  const pkg = JSON.parse(readFileSync(path.join(SDK_DIR, 'package.json'), 'utf8')) as { version: string };
  const files = [
    { name: 'package.json', data: readFileSync(path.join(SDK_DIR, 'package.json')) },
    { name: 'README.md', data: readFileSync(path.join(SDK_DIR, 'README.md')) },
    ...readdirSync(dist)
      .sort()
      .map((f) => ({ name: `dist/${f}`, data: readFileSync(path.join(dist, f)) })),
  ];
  return { filename: `emporium-plugin-sdk-${pkg.version}.tgz`, bytes: npmTarball(files) };
}
