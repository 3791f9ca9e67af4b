import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { installAndWait, packPlugin, pluginSlug, startPluginShop } from './plugins.testing.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ t, env } = await startPluginShop(null));
});
afterAll(() => t.close());

const answering = (code: string) =>
  `export default { register(ctx) { ctx.routes.admin('GET', '/who', async () => ({ code: '${code}' })); } };`;

describe('the folder a verified package is extracted to', () => {
  it('runs the verified bytes, never a folder some other package left where this one extracts', async () => {
    const id = pluginSlug('extracted');
    const bytes = await packPlugin(
      { id, server: 'server/index.js', permissions: { routes: { admin: true } } },
      { 'server/index.js': answering('GENUINE') },
    );
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // What a failed install of another package (another vendor's, same manifest id and version)
    // could leave behind at this package's folder, marked complete for its own hash: under the
    // whole hash, and under the 8 hex digits folders were once named by (matched by brute force).
    for (const name of [sha256, sha256.slice(0, 8)]) {
      const planted = path.join(env.DATA_DIR, 'plugins', id, `1.0.0-${name}`);
      mkdirSync(path.join(planted, 'server'), { recursive: true });
      writeFileSync(path.join(planted, 'server', 'index.js'), answering('PLANTED'));
      writeFileSync(path.join(planted, 'manifest.json'), '{}');
      writeFileSync(path.join(planted, '.emporium-complete'), `${sha256.slice(0, 8)}${'f'.repeat(56)}`);
    }

    writeFileSync(path.join(env.PLUGINS_DIR, `${id}.tgz`), bytes);
    expect((await installAndWait(t, `@tests/${id}`)).status).toBe('installed');
    const res = await t.admin('GET', `/admin/plugins/${id}/who`);
    expect(res.json()).toEqual({ code: 'GENUINE' });
  });
});
