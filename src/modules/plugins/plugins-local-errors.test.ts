import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { installAndWait, pluginSlug, startPluginShop } from './plugins.testing.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ t, env } = await startPluginShop(null));
});
afterAll(() => t.close());

/** A plugin folder in PLUGINS_DIR whose server entry imports a package nobody installed. */
function folderWithoutDependencies(id: string): string {
  const dir = path.join(env.PLUGINS_DIR, id);
  mkdirSync(path.join(dir, 'server'), { recursive: true });
  writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify({ id, vendor: 'tests', name: id, version: '1.0.0', type: 'integration', server: 'server/index.js' }),
  );
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: id, type: 'module', dependencies: { stripe: '^1' } }),
  );
  writeFileSync(
    path.join(dir, 'server/index.js'),
    "import Stripe from 'stripe';\nexport default { register() { return Stripe; } };\n",
  );
  return dir;
}

describe('a plugin folder that cannot be packed', () => {
  it('says why, in the install and in the feed, never "not in the local plugin folder"', async () => {
    const id = pluginSlug('needs-install');
    folderWithoutDependencies(id);

    const feed = await t.admin('GET', '/admin/marketplace/feed');
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.json().products.map((p: { marketplace_id: string }) => p.marketplace_id)).not.toContain(`@tests/${id}`);
    const problem = feed.json().local_errors.find((e: { file: string }) => e.file === `plugins/${id}`);
    expect(problem).toMatchObject({ marketplace_id: `@tests/${id}` });
    expect(problem.error).toContain('stripe');
    expect(problem.error).toContain(`run npm install in plugins/${id}`);

    const plugin = await installAndWait(t, `@tests/${id}`);
    expect(plugin.status).toBe('failed');
    expect(plugin.error).toContain(`run npm install in plugins/${id}`);
    expect(plugin.error).not.toContain('not in the local plugin folder');
  });
});
