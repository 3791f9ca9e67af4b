import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packPlugin } from '../plugin-package/pack-package.ts';
import { readPackage } from '../plugin-package/read-package.ts';
import { UsageError } from './usage-error.ts';

/**
 * `emporium plugin pack <dir> [--out file]`: writes the deterministic .tgz (the server entry
 * bundled with its npm dependencies when package.json declares any), prints its path and sha256.
 */
export async function pluginPack(argv: string[]): Promise<{ file: string; sha256: string }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' } },
  });
  if (positionals.length !== 1) throw new UsageError('plugin pack takes one folder');
  const { bytes, bundled } = await packPlugin(positionals[0]);
  const { manifest, sha256 } = await readPackage(bytes);
  const file = path.resolve(values.out ?? `${manifest.vendor}-${manifest.id}-${manifest.version}.tgz`);
  writeFileSync(file, bytes);
  console.log(`Packed @${manifest.vendor}/${manifest.id}@${manifest.version} (${bytes.length} bytes)`);
  if (bundled)
    console.log(
      `Bundled ${bundled.entry} with ${bundled.bundler}: ${bundled.packages.map((p) => `${p.name}@${p.version}`).join(', ') || 'no packages'}`,
    );
  console.log(file);
  console.log(`sha256 ${sha256}`);
  return { file, sha256 };
}
