import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../../test/app.ts';
import { packExample } from '../../marketplace/marketplace.testing.ts';
import { shopAdmin } from '../../federation/paid.testing.ts';
import { notifyPluginUpdates } from '../updates.ts';
import { installAndWait, pluginSlug, type TestMarketplace, startMarketplaceAndShop } from '../plugins.testing.ts';

let m: TestMarketplace;
let t: TestApp;
beforeAll(async () => {
  ({ m, t } = await startMarketplaceAndShop({
    PLUGIN_RESTART_DELAY_MS: '5',
    PLUGIN_ROLLBACK_CRASHES: '3',
    PLUGIN_MAX_CRASHES: '5',
  }));
}, 240_000);
afterAll(() => closeAll(t, m));

const GOOD = `export default { register(ctx) { ctx.routes.admin('GET', '/alive', () => ({ alive: ctx.plugin.version })); } };`;
const pluginRow = async (id: string) => (await shopAdmin(t, 'GET', `/admin/plugins/${id}`)).json().plugin;

async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('crash-loop rollback', () => {
  it('an update whose process keeps crashing goes back to the previous version, tells the operator and the marketplace, and is held out of updates', {
    timeout: 120_000,
  }, async () => {
    const id = pluginSlug('crashy');
    // 1.0.0 works; 1.1.0 is examples/plugins/crash-on-start: it loads, then exits every time.
    const good = await packExample('crash-on-start', { id, version: '1.0.0' }, { 'server/index.js': GOOD });
    const item = await m.publish(good);
    await m.publish(await packExample('crash-on-start', { id, version: '1.1.0' }));
    const mid = item.marketplace_id;
    const plugin = await installAndWait(t, mid);
    expect(plugin.status, plugin.error).toBe('installed');
    const events: { from: string; to: string; reason: string }[] = [];
    t.workers.bus.on('plugin.rolled_back', async (e) => void events.push(e.payload as (typeof events)[number]));

    const res = await t.admin('POST', `/admin/plugins/${plugin.id}/update`, { version: '1.1.0' });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.plugins.settled();

    const rolled = await until(
      'the rollback',
      () => pluginRow(plugin.id),
      (p) => p.rollback !== null,
    );
    expect(rolled).toMatchObject({
      status: 'installed',
      version: '1.0.0',
      held_versions: ['1.1.0'],
      rollback: { from: '1.1.0', to: '1.0.0', reason: expect.stringMatching(/exited|code 1/) },
    });
    // The previous code runs again.
    const alive = await until(
      'the old version to answer',
      async () => (await shopAdmin(t, 'GET', `/admin/plugins/${id}/alive`)).json(),
      (b) => b?.alive === '1.0.0',
    );
    expect(alive.alive).toBe('1.0.0');

    // The operator is told: the notification, the event, the marketplace view's state.
    const notes = (await t.admin('GET', '/admin/notifications')).json().notifications;
    expect(notes.map((n: { type: string }) => n.type)).toContain('plugin.rolled_back');
    await t.workers.dispatcher.drain();
    expect(events).toEqual([expect.objectContaining({ from: '1.1.0', to: '1.0.0' })]);
    const feed = (await t.admin('GET', `/admin/marketplace/feed/${mid}`)).json().product;
    expect(feed.rollback).toMatchObject({ from: '1.1.0', to: '1.0.0' });

    // Held out of updates: 1.1.0 is not offered to this shop again.
    expect(await notifyPluginUpdates(t.ctx, t.config)).toBe(0);

    // The marketplace shows the crash report to the vendor, per version.
    const reports = await m.app.inject({
      method: 'GET',
      url: `/admin/marketplace/items/${(item as unknown as { id: string }).id}/crash-reports`,
      headers: { authorization: `Bearer ${m.adminToken}` },
    });
    expect(reports.statusCode, reports.body).toBe(200);
    expect(reports.json().crash_reports).toEqual([
      expect.objectContaining({
        version: '1.1.0',
        instances: 1,
        reports: 1,
        reasons: [expect.objectContaining({ rolled_back_to: '1.0.0' })],
      }),
    ]);
  });
});
