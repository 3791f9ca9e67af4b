import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app.ts';
import { pluginSlug, startPluginShop } from '../modules/plugins/plugins.testing.ts';
import { type AdminCall, devVersion, startPluginDev } from './plugin-dev.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ t, env } = await startPluginShop(null));
});
afterAll(() => t.close());

const call: AdminCall = async (method, url, body) => {
  const res = await t.admin(method, url, body as never);
  return { status: res.statusCode, body: res.json() };
};

describe('emporium plugin dev', () => {
  it('numbers reloads as dev versions of the manifest version', () => {
    expect(devVersion('1.2', 7)).toBe('1.2.0.7');
    expect(devVersion('1.2.3', 8)).toBe('1.2.3.8');
    expect(() => devVersion('1.2.3.4', 9)).toThrow('at most three numbers');
  });

  it('reloads the plugin into the running shop when its files change', async () => {
    const id = pluginSlug('dev');
    const dir = mkdtempSync(path.join(tmpdir(), 'emporium-dev-'));
    mkdirSync(path.join(dir, 'server'));
    const manifest = (permissions: object) =>
      writeFileSync(
        path.join(dir, 'manifest.json'),
        JSON.stringify({
          id,
          vendor: 'tests',
          name: 'Dev',
          version: '1.0.0',
          type: 'integration',
          server: 'server/index.js',
          permissions,
        }),
      );
    const server = (code: string) =>
      writeFileSync(path.join(dir, 'server/index.js'), `export default { register(ctx) { ${code} } };`);
    manifest({ routes: { admin: true } });
    server(`ctx.routes.admin('GET', '/v', () => ({ v: 1 }));`);

    const lines: string[] = [];
    const dev = startPluginDev({ dir, pluginsDir: env.PLUGINS_DIR, call, debounceMs: 50, log: (l) => lines.push(l) });
    try {
      await dev.reloaded(1);
      expect(dev.last).toMatchObject({ status: 'installed', error: null });
      expect((await t.admin('GET', `/admin/plugins/${id}/v`)).json()).toEqual({ v: 1 });

      server(`ctx.routes.admin('GET', '/v', () => ({ v: 2 }));`);
      await dev.reloaded(2);
      expect(dev.last).toMatchObject({ status: 'installed', error: null });
      expect((await t.admin('GET', `/admin/plugins/${id}/v`)).json()).toEqual({ v: 2 });

      // Asking for more rights: the dev loop approves them for its own plugin, and says so.
      manifest({ routes: { admin: true, store: true } });
      server(`ctx.routes.store('GET', '/v', () => ({ v: 3 }));`);
      await dev.reloaded(3);
      expect((await t.store('GET', `/store/plugins/${id}/v`)).json()).toEqual({ v: 3 });
      expect(lines).toContain('approving new rights: route:store');
    } finally {
      dev.stop();
    }
  });
});
