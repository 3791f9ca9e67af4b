import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { pluginInit } from '../../cli/plugin-init.ts';
import { packPlugin } from '../../plugin-package/pack-package.ts';
import { readPackage } from '../../plugin-package/read-package.ts';
import { installAndWait, pluginSlug, startPluginShop } from './plugins.testing.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ t, env } = await startPluginShop(null));
});
afterAll(() => t.close());

/**
 * A plugin folder whose server entry imports `shared-lib` (CommonJS, requiring a Node built-in)
 * from its own node_modules, at the given version.
 */
function pluginWithLibrary(id: string, libVersion: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'emporium-bundled-'));
  const file = (name: string, content: string) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  };
  file(
    'manifest.json',
    JSON.stringify({ id, vendor: 'tests', name: id, version: '1.0.0', type: 'integration', server: 'server/index.js' }),
  );
  file('package.json', JSON.stringify({ name: id, type: 'module', dependencies: { 'shared-lib': libVersion } }));
  file(
    'node_modules/shared-lib/package.json',
    JSON.stringify({ name: 'shared-lib', version: libVersion, license: 'MIT', main: 'index.js' }),
  );
  file(
    'node_modules/shared-lib/index.js',
    `const os = require('node:os');\nmodule.exports = { version: '${libVersion}', platform: () => os.platform() };\n`,
  );
  file(
    'server/index.js',
    `import lib from 'shared-lib';\nexport default { register(ctx) { ctx.routes.store('GET', '/lib', () => ({ version: lib.version, platform: lib.platform() })); } };\n`,
  );
  return dir;
}

describe('plugin pack bundles npm dependencies into the server entry', () => {
  it('records what it bundled; two installed plugins run two versions of one library, with no node_modules', async () => {
    const packs = [];
    for (const version of ['1.0.0', '2.0.0']) {
      const id = pluginSlug(`lib-user-${version[0]}`);
      const dir = pluginWithLibrary(id, version);
      const { bytes, bundled } = await packPlugin(dir);
      expect(bundled).toEqual({
        entry: 'server/index.js',
        bundler: expect.stringMatching(/^esbuild@\d+\.\d+\.\d+$/),
        packages: [{ name: 'shared-lib', version, license: 'MIT' }],
      });
      const pkg = await readPackage(bytes);
      expect([...pkg.files.keys()]).toEqual([
        'emporium-bundle.json',
        'manifest.json',
        'package.json',
        'server/index.js',
      ]);
      expect(JSON.parse(pkg.files.get('emporium-bundle.json')!.toString())).toEqual(bundled);
      expect(pkg.files.get('server/index.js')!.toString()).not.toMatch(/from ['"]shared-lib['"]/);
      // The same folder packs to the same bytes.
      expect((await packPlugin(dir)).bytes.equals(bytes)).toBe(true);
      rmSync(dir, { recursive: true, force: true });
      writeFileSync(path.join(env.PLUGINS_DIR, `${id}.tgz`), bytes);
      packs.push({ id, version });
    }
    for (const { id, version } of packs) {
      const plugin = await installAndWait(t, `@tests/${id}`);
      expect(plugin.status, plugin.error).toBe('installed');
      const res = await t.store('GET', `/store/plugins/${id}/lib`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ version, platform: process.platform });
    }
  });

  it('packs a plugin without dependencies as written, and names a missing library', async () => {
    const id = pluginSlug('plain');
    const dir = pluginWithLibrary(id, '1.0.0');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: id }));
    const plain = await packPlugin(dir);
    expect(plain.bundled).toBeNull();
    expect((await readPackage(plain.bytes)).files.get('server/index.js')!.toString()).toContain("from 'shared-lib'");

    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: id, dependencies: { 'shared-lib': '1' } }));
    rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
    await expect(packPlugin(dir)).rejects.toThrow(/^Bundling server\/index\.js failed: Could not resolve "shared-lib"/);
  });
});

describe('provider plugins scaffolded by plugin init', () => {
  it('register a payment provider and a notification provider that go live and leave with the plugin', async () => {
    const pay = pluginSlug('pay');
    const mail = pluginSlug('mail');
    pluginInit([path.join(env.PLUGINS_DIR, pay), '--type', 'payment-provider', '--vendor', 'tests']);
    pluginInit([path.join(env.PLUGINS_DIR, mail), '--type', 'notification-provider', '--vendor', 'tests']);
    const installed = [
      await installAndWait(t, `@tests/${pay}`, '0.1.0'),
      await installAndWait(t, `@tests/${mail}`, '0.1.0'),
    ];
    expect(installed.map((p) => p.status)).toEqual(['installed', 'installed']);
    const payments = (await t.admin('GET', '/admin/payments/payment-providers')).json().payment_providers;
    expect(payments).toContainEqual({ id: 'pp_my-processor', is_enabled: true, name: 'My processor', plugin: pay });
    const senders = (await t.admin('GET', '/admin/notification-providers')).json();
    expect(senders.notification_providers).toEqual([
      { id: 'my-sender', name: 'my-sender', channels: ['email'], plugin: mail },
    ]);

    // Another plugin with the same provider id fails to load, saying who holds it.
    const twin = pluginSlug('pay-twin');
    pluginInit([path.join(env.PLUGINS_DIR, twin), '--type', 'payment-provider', '--vendor', 'tests']);
    const clash = await installAndWait(t, `@tests/${twin}`, '0.1.0');
    expect(clash.status).toBe('failed');
    expect(clash.error).toBe(
      `Plugin threw while loading: payment provider pp_my-processor is already registered by plugin ${pay}`,
    );

    expect((await t.admin('DELETE', `/admin/plugins/${installed[0].id}`)).statusCode).toBe(200);
    await t.app.plugins.settled();
    const after = (await t.admin('GET', '/admin/payments/payment-providers')).json().payment_providers;
    expect(after.map((p: { id: string }) => p.id)).toEqual(['pp_system_default']);
  });
});
