import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

export interface RawEntry {
  name: string;
  data?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'fifo';
  linkname?: string;
}

/**
 * Builds a .tgz exactly as told, hostile entries included (absolute names, `..`, links):
 * tests use it to prove readPackage refuses what packPackage would never produce.
 */
export async function rawTarball(entries: RawEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pack.on('data', (c) => chunks.push(Buffer.from(c as Uint8Array)));
    pack.on('end', () => resolve(Buffer.concat(chunks)));
    pack.on('error', reject);
  });
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    const type = e.type ?? 'file';
    const header = { name: e.name, type, linkname: e.linkname, mode: 0o644 };
    if (type === 'file') pack.entry(header, data ?? Buffer.alloc(0));
    else pack.entry(header);
  }
  pack.finalize();
  return gzipSync(await done);
}

/** A minimal valid manifest, with overrides. */
export function manifestJson(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 'sample',
    vendor: 'tests',
    name: 'Sample',
    version: '1.0.0',
    type: 'integration',
    ...overrides,
  });
}
