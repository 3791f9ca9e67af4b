import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { installAndWait, publishProbe, type TestMarketplace, startMarketplaceAndShop } from './plugins.testing.ts';

let m: TestMarketplace;
let t: TestApp;
beforeAll(async () => {
  ({ m, t } = await startMarketplaceAndShop());
});
afterAll(() => closeAll(t, m));

async function installProbe(files: Record<string, string> = {}) {
  const probe = await publishProbe(m, {}, files);
  const plugin = await installAndWait(t, probe.marketplaceId);
  expect(plugin.status).toBe('installed');
  return { ...probe, plugin };
}

const configure = (id: string, config: unknown, token?: string) =>
  t.admin('POST', `/admin/plugins/${id}/configure`, { config }, { token });
const pluginView = async (manifestId: string) => (await t.store('GET', `/store/plugins/${manifestId}/config`)).json();

describe('configuration', () => {
  it('starts empty, stores secrets encrypted, masks them, and hands the values to the running plugin', async () => {
    const { id, plugin } = await installProbe();
    expect((await t.admin('GET', `/admin/plugins/${plugin.id}/configure`)).json()).toEqual({
      config: { token: null, greeting: null, limit: null, enabled: null },
    });
    expect(await pluginView(id)).toEqual({ config: {}, loads: 1 });

    const res = await configure(plugin.id, {
      token: 'tok_live_abcdef123456',
      greeting: 'Hej',
      limit: 3,
      enabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ config: { token: '••••3456', greeting: 'Hej', limit: 3, enabled: true } });
    expect((await t.admin('GET', `/admin/plugins/${plugin.id}/configure`)).json().config.token).toBe('••••3456');

    const [stored] = await rows<{ config: Record<string, unknown> }>(
      t.database.db,
      sql`select config from plugins where id = ${plugin.id}`,
    );
    expect(JSON.stringify(stored.config)).not.toContain('tok_live');
    expect(stored.config.token).toEqual({ enc: expect.stringMatching(/^v2\./) });

    // No onConfigure: the host reloads the plugin (a fresh register) with the decrypted values.
    const view = await pluginView(id);
    expect(view.config).toEqual({ token: 'tok_live_abcdef123456', greeting: 'Hej', limit: 3, enabled: true });
  });

  it('keeps a secret sent back masked, replaces it when changed, clears a field with null', async () => {
    const { id, plugin } = await installProbe();
    await configure(plugin.id, { token: 'first-secret-9876', greeting: 'Hi' });
    const [before] = await rows<{ config: { token: unknown } }>(
      t.database.db,
      sql`select config from plugins where id = ${plugin.id}`,
    );

    const kept = await configure(plugin.id, { token: '••••9876', greeting: 'Hello' });
    expect(kept.json()).toEqual({ config: { token: '••••9876', greeting: 'Hello', limit: null, enabled: null } });
    const [after] = await rows<{ config: { token: unknown } }>(
      t.database.db,
      sql`select config from plugins where id = ${plugin.id}`,
    );
    expect(after.config.token).toEqual(before.config.token);
    expect((await pluginView(id)).config).toEqual({ token: 'first-secret-9876', greeting: 'Hello' });

    expect((await configure(plugin.id, { greeting: null })).json().config.greeting).toBeNull(); // absent token: kept
    expect((await configure(plugin.id, { token: 'second-secret-5555' })).json().config.token).toBe('••••5555');
    expect((await pluginView(id)).config).toEqual({ token: 'second-secret-5555' });
    expect((await configure(plugin.id, { token: 'short' })).json().config.token).toBe('••••'); // too short to show any of it
  });

  it('validates against the manifest fields', async () => {
    const { plugin } = await installProbe();
    const cases: [unknown, string, string][] = [
      [
        { token: 'x'.repeat(10), colour: 'red' },
        "Unknown config field 'colour' (fields: token, greeting, limit, enabled)",
        'plugin_config_unknown',
      ],
      [{ token: 'x'.repeat(10), limit: 'three' }, "Config field 'limit' must be a number", 'plugin_config_type'],
      [{ token: 'x'.repeat(10), enabled: 'yes' }, "Config field 'enabled' must be a boolean", 'plugin_config_type'],
      [{ token: 42 }, "Config field 'token' must be a string", 'plugin_config_type'],
      [{ greeting: 'no token yet' }, "Config field 'token' is required", 'plugin_config_required'],
      [{ token: '' }, "Config field 'token' is required", 'plugin_config_required'],
    ];
    for (const [config, message, code] of cases) {
      const res = await configure(plugin.id, config);
      expect(res.statusCode, JSON.stringify(config)).toBe(400);
      expect(res.json()).toEqual({ type: 'invalid_data', code, message: `Invalid request: ${message}` });
    }
    const extra = await t.admin('POST', `/admin/plugins/${plugin.id}/configure`, { config: {}, more: 1 });
    expect(extra.statusCode).toBe(400);
    const notObject = await t.admin('POST', `/admin/plugins/${plugin.id}/configure`, { config: 'token=x' });
    expect(notObject.statusCode).toBe(400);
    expect((await t.admin('POST', `/admin/plugins/${plugin.id}/configure`, {})).statusCode).toBe(400);
    expect((await configure('plg_missing', { token: 'x' })).statusCode).toBe(404);
    expect((await t.admin('GET', '/admin/plugins/plg_missing/configure')).statusCode).toBe(404);
  });

  it('never shows viewers any part of a secret, and refuses their writes', async () => {
    const { plugin } = await installProbe();
    await configure(plugin.id, { token: 'viewer-must-not-see-1234', greeting: 'Hey' });
    const viewer = await t.admin('GET', `/admin/plugins/${plugin.id}/configure`, undefined, { token: t.viewerToken });
    expect(viewer.statusCode).toBe(200);
    expect(viewer.json()).toEqual({ config: { token: '••••', greeting: 'Hey', limit: null, enabled: null } });
    expect((await configure(plugin.id, { greeting: 'x' }, t.viewerToken)).statusCode).toBe(403);
    expect(
      (await t.admin('GET', `/admin/plugins/${plugin.id}`, undefined, { token: t.viewerToken })).body,
    ).not.toContain('1234');
  });

  it('calls onConfigure instead of reloading when the plugin has one', async () => {
    const server = `
let calls = [];
export default {
  register(ctx) {
    ctx.routes.store('GET', '/config', () => ({ config: { ...ctx.config }, calls }));
  },
  onConfigure(config) { calls.push(config.greeting ?? null); },
};`;
    const { id, plugin } = await installProbe({ 'server/index.js': server });
    await configure(plugin.id, { token: 'abcdefgh-1', greeting: 'one' });
    await configure(plugin.id, { greeting: 'two' });
    expect(await pluginView(id)).toEqual({ config: { token: 'abcdefgh-1', greeting: 'two' }, calls: ['one', 'two'] });
  });

  it('refuses to configure a plugin that never installed (409)', async () => {
    const failed = await installAndWait(t, '@tests/never-published', '1.0.0');
    expect(failed.status).toBe('failed');
    const res = await configure(failed.id, { token: 'x' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Plugin @tests/never-published is not installed yet (status: failed)');
  });
});
