import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApp } from '../../../test/app.ts';
import { packPackage } from '../../plugin-package/pack-package.ts';

export const EXAMPLES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/plugins');
/** The examples' libraries (stripe, nodemailer) come from the repository's node_modules when a copy is packed. */
const REPO_NODE_MODULES = path.resolve(EXAMPLES_DIR, '../../node_modules');

/** A marketplace test app's environment; the rate limit is lifted except where a test wants it. */
export const MARKETPLACE_ENV = {
  SERVICE_ROLE: 'marketplace',
  MARKETPLACE_RATE_LIMIT: '1000000',
  PUBLIC_URL: 'http://market.test',
};

/** Packs an example plugin, with manifest fields replaced (tests give each item its own id) and files overwritten. */
export async function packExample(
  example: string,
  manifest: Record<string, unknown> = {},
  files: Record<string, string> = {},
): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), `emporium-${example}-`));
  cpSync(path.join(EXAMPLES_DIR, example), dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const file = path.join(dir, 'manifest.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...manifest }));
  return packPackage(dir, { nodePaths: [REPO_NODE_MODULES] });
}

export function uploadForm(bytes: Buffer | null, fields: Record<string, string> = {}, fileField = 'file'): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (bytes) form.append(fileField, new Blob([new Uint8Array(bytes)], { type: 'application/gzip' }), 'plugin.tgz');
  return form;
}

/** POST /admin/marketplace/items as the admin (or `token`). */
export function publish(
  t: TestApp,
  bytes: Buffer | null,
  fields: Record<string, string> = {},
  opts: { token?: string; fileField?: string } = {},
) {
  return t.inject({
    method: 'POST',
    url: '/admin/marketplace/items',
    headers: { authorization: `Bearer ${opts.token ?? t.adminToken}` },
    payload: uploadForm(bytes, fields, opts.fileField),
  });
}

let seq = 0;
/** A slug no other test of the worker uses. */
export function uniqueSlug(base: string): string {
  return `${base}-${process.pid}-${++seq}`;
}
