import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { MARKETPLACE_ENV } from '../modules/marketplace/marketplace.testing.ts';
import { readPackage } from '../plugin-package/read-package.ts';
import { packPackage } from '../plugin-package/pack-package.ts';
import { pluginInit } from './plugin-init.ts';
import { pluginPack } from './plugin-pack.ts';
import { pluginPublish } from './plugin-publish.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/emporium.mjs');
const cli = (args: string[], cwd: string) => execFileSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
});
afterAll(() => t.close());

/** fetch() answered by the test marketplace through inject, so publish runs without a socket. */
const viaInject: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  const res = await t.inject({
    method: (init?.method ?? 'GET') as 'POST',
    url: url.pathname + url.search,
    headers: init?.headers as Record<string, string>,
    payload: init?.body as FormData,
  });
  return new Response(res.body, {
    status: res.statusCode,
    headers: { 'content-type': String(res.headers['content-type']) },
  });
};

describe('emporium plugin init → pack → publish', () => {
  it('scaffolds a skeleton that packs deterministically and reads back', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'emporium-cli-'));
    expect(cli(['plugin', 'init', 'my-plugin', '--vendor', 'acme', '--type', 'integration'], cwd)).toContain(
      'Created @acme/my-plugin (integration)',
    );
    const first = cli(['plugin', 'pack', 'my-plugin', '--out', 'a.tgz'], cwd);
    const second = cli(['plugin', 'pack', 'my-plugin', '--out', 'b.tgz'], cwd);
    const digest = (out: string) => out.match(/^sha256 ([0-9a-f]{64})$/m)![1];
    expect(first).toContain(path.join(cwd, 'a.tgz'));
    expect(digest(first)).toBe(digest(second));

    const bytes = readFileSync(path.join(cwd, 'a.tgz'));
    expect(bytes.equals(readFileSync(path.join(cwd, 'b.tgz')))).toBe(true);
    const pkg = await readPackage(bytes);
    expect(pkg.sha256).toBe(digest(first));
    expect(pkg.manifest).toMatchObject({
      id: 'my-plugin',
      vendor: 'acme',
      version: '0.1.0',
      type: 'integration',
      server: 'server/index.js',
      migrations: 'migrations',
    });
    expect([...pkg.files.keys()].sort()).toEqual([
      'README.md',
      'manifest.json',
      'migrations/0001_init.sql',
      'package.json', // the SDK as a devDependency (its tarball in .emporium/ is not packed)
      'server/index.js',
    ]);
    expect(pkg.files.get('server/index.js')!.toString()).toContain('export default');

    const item = await pluginPublish(
      [
        path.join(cwd, 'a.tgz'),
        '--marketplace',
        'http://market.test/',
        '--token',
        t.adminToken,
        '--price-eur',
        '9.5',
        '--changelog-url',
        'https://acme.example/changes',
      ],
      viaInject,
    );
    expect(item).toMatchObject({
      marketplace_id: '@acme/my-plugin',
      version: '0.1.0',
      sha256: pkg.sha256,
      price_eur: 9.5,
      changelog_url: 'https://acme.example/changes',
    });
    await expect(
      pluginPublish(
        [path.join(cwd, 'a.tgz'), '--marketplace', 'http://market.test', '--token', t.adminToken],
        viaInject,
      ),
    ).rejects.toThrow('Publishing failed (409): Version 0.1.0 of @acme/my-plugin already exists');
  });

  it('scaffolds an admin extension and refuses bad arguments', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'emporium-cli-'));
    const dir = (name: string) => path.join(cwd, name);
    pluginInit([dir('widget'), '--type', 'admin-extension', '--id', 'my-widget']);
    expect(JSON.parse(readFileSync(dir('widget/manifest.json'), 'utf8'))).toMatchObject({
      id: 'my-widget',
      vendor: 'example',
      admin: 'admin/index.js',
    });
    expect((await readPackage(await packPackage(dir('widget')))).files.has('admin/index.js')).toBe(true);

    expect(() => pluginInit([dir('widget')])).toThrow('exists and is not empty');
    expect(() => pluginInit([dir('x'), '--type', 'theme'])).toThrow('--type must be one of');
    expect(() => pluginInit([dir('y'), '--id', 'Not_A_Slug'])).toThrow("field 'id' must be a lower-case slug");
    await expect(pluginPublish([dir('widget')])).rejects.toThrow('--marketplace and --token are required');
    await expect(pluginPack([dir('nothing-here')])).rejects.toThrow('is not a folder');
  });
});
