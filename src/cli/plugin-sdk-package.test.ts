import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPackage } from '../plugin-package/read-package.ts';
import { packPackage } from '../plugin-package/pack-package.ts';
import { pluginInit } from './plugin-init.ts';

describe('the plugin SDK as a package a vendor depends on', () => {
  it('plugin init wires the SDK tarball in; npm installs it offline with types and createTestHost', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'emporium-sdk-')), 'my-plugin');
    pluginInit([dir, '--vendor', 'acme']);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const spec: string = pkg.devDependencies['@emporium/plugin-sdk'];
    expect(spec).toMatch(/^file:\.emporium\/emporium-plugin-sdk-\d+\.\d+\.\d+\.tgz$/);
    expect(JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).permissions).toEqual({
      events: ['order.placed'],
      routes: { admin: true },
    });

    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: dir,
      stdio: 'pipe',
    });
    const installed = path.join(dir, 'node_modules/@emporium/plugin-sdk');
    expect(existsSync(path.join(installed, 'dist/index.d.ts'))).toBe(true);
    expect(readFileSync(path.join(installed, 'dist/index.d.ts'), 'utf8')).toContain('createTestHost');
    const probe = `import { createTestHost } from '@emporium/plugin-sdk';
      import plugin from './server/index.js';
      const host = createTestHost({ permissions: { events: ['order.placed'], routes: { admin: true } }, db: { query: async () => [] } });
      await host.load(plugin);
      await host.emit('order.placed', { id: 'order_1' });
      console.log(JSON.stringify(await host.request('admin', 'GET', '/seen')));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ status: 200, body: { orders: [] } });

    // Neither the tarball nor node_modules goes into the plugin package.
    const files = [...(await readPackage(await packPackage(dir))).files.keys()];
    expect(files.some((f) => f.startsWith('.emporium') || f.startsWith('node_modules'))).toBe(false);
  });
});
