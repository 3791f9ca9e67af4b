import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import type { Config } from '../../platform/config.ts';
import {
  installAndWait,
  packPlugin,
  pluginSlug,
  type TestMarketplace,
  startMarketplaceAndShop,
} from '../plugins/plugins.testing.ts';
import { shopAdmin } from './paid.testing.ts';
import { pollRevocations } from './revocations.ts';

let m: TestMarketplace;
let t: TestApp;
beforeAll(async () => {
  ({ m, t } = await startMarketplaceAndShop());
}, 240_000);
afterAll(() => closeAll(t, m));

const MINUTE = 60_000;
const SERVER = `export default { register(ctx) { ctx.routes.admin('GET', '/alive', () => ({ alive: ctx.plugin.version })); } };`;

async function installed(): Promise<{
  id: string;
  marketplaceId: string;
  itemId: string;
  versionId: string;
  plugin: { id: string };
}> {
  const id = pluginSlug('rev');
  const bytes = await packPlugin(
    { id, server: 'server/index.js', permissions: { routes: { admin: true } } },
    { 'server/index.js': SERVER },
  );
  const item = (await m.publish(bytes)) as unknown as {
    id: string;
    marketplace_id: string;
    versions: { id: string }[];
  };
  const plugin = await installAndWait(t, item.marketplace_id);
  expect(plugin.status).toBe('installed');
  return { id, marketplaceId: item.marketplace_id, itemId: item.id, versionId: item.versions[0].id, plugin };
}

const market = (method: 'GET' | 'POST', url: string, payload?: object) =>
  m.app.inject({ method, url, headers: { authorization: `Bearer ${m.adminToken}` }, ...(payload ? { payload } : {}) });
const alive = async (manifestId: string) =>
  (await shopAdmin(t, 'GET', `/admin/plugins/${manifestId}/alive`)).statusCode;
const pluginRow = async (id: string) => (await shopAdmin(t, 'GET', `/admin/plugins/${id}`)).json().plugin;

describe('revocation reaching shops', () => {
  it('critical stops the plugin within one polling interval; warning keeps it running; both shown with the reason', async () => {
    const a = await installed();
    const b = await installed();
    expect(await pollRevocations(t.ctx, t.config, t.app.plugins, true)).toMatchObject({ status: 'accepted' });
    const events: { id: string; severity: string; reason: string }[] = [];
    t.workers.bus.on('plugin.revoked', async (e) => void events.push(e.payload as (typeof events)[number]));

    const critical = await market('POST', `/admin/marketplace/items/${a.itemId}/versions/${a.versionId}/revoke`, {
      severity: 'critical',
      reason: 'Leaks the admin session to a third party',
    });
    expect(critical.statusCode, critical.body).toBe(200);
    const warning = await market('POST', `/admin/marketplace/items/${b.itemId}/revoke`, {
      severity: 'warning',
      reason: 'Vendor no longer maintains it',
    });
    expect(warning.json().revocation).toMatchObject({ kind: 'item', severity: 'warning' });
    // Gone from the marketplace at once: no new download.
    expect(
      (await m.app.inject({ method: 'GET', url: `/store/marketplace/download/${a.marketplaceId}/1.0.0` })).statusCode,
    ).toBe(404);

    t.clock.advance(14 * MINUTE);
    expect(await pollRevocations(t.ctx, t.config, t.app.plugins)).toEqual({ status: 'not_due' });
    expect(await alive(a.id)).toBe(200);

    t.clock.advance(MINUTE);
    const polled = await pollRevocations(t.ctx, t.config, t.app.plugins);
    expect(polled).toMatchObject({ status: 'accepted', applied: 2 });
    expect(await alive(a.id)).not.toBe(200);
    expect(t.app.plugins.host.isLoaded(a.id, a.plugin.id)).toBeUndefined();
    expect(await pluginRow(a.plugin.id)).toMatchObject({
      status: 'disabled',
      error: 'Revoked by the marketplace: Leaks the admin session to a third party',
      revocation: { severity: 'critical', reason: 'Leaks the admin session to a third party' },
    });
    expect(await alive(b.id)).toBe(200);
    expect(await pluginRow(b.plugin.id)).toMatchObject({
      status: 'installed',
      revocation: { severity: 'warning', reason: 'Vendor no longer maintains it' },
    });
    const listed = (await shopAdmin(t, 'GET', '/admin/plugins')).json().plugins;
    expect(listed.find((p: { id: string }) => p.id === a.plugin.id).revocation.severity).toBe('critical');

    await t.workers.dispatcher.drain();
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: a.plugin.id, severity: 'critical' }),
        expect.objectContaining({ id: b.plugin.id, severity: 'warning' }),
      ]),
    );
    const notes = (await shopAdmin(t, 'GET', '/admin/notifications?type=plugin.revoked')).json().notifications;
    expect(notes.map((n: { data: { plugin_id: string } }) => n.data.plugin_id)).toEqual(
      expect.arrayContaining([a.plugin.id, b.plugin.id]),
    );

    // The same list again changes nothing.
    t.clock.advance(15 * MINUTE);
    expect(await pollRevocations(t.ctx, t.config, t.app.plugins)).toMatchObject({ status: 'accepted', applied: 0 });
    await t.workers.dispatcher.drain();
    expect(events.filter((e) => e.id === a.plugin.id)).toHaveLength(1);
  });

  it('a replayed older list and a forged one are refused and noted', async () => {
    // A stand-in marketplace URL serving whatever list the test sets, trusting the real marketplace's key.
    let served: unknown = null;
    const server: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(served));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const key = (await m.app.inject({ method: 'GET', url: '/store/marketplace/keys' })).json().keys[0].public_key;
      const config: Config = { ...t.config, federation: { ...t.config.federation!, url, signingKey: key } };
      const list = async () => (await m.app.inject({ method: 'GET', url: '/store/marketplace/revocations' })).json();

      const older = await list();
      const c = await installed();
      await market('POST', `/admin/marketplace/items/${c.itemId}/revoke`, {
        severity: 'warning',
        reason: 'Superseded',
      });
      served = await list();
      expect((served as { sequence: number }).sequence).toBe(older.sequence + 1);
      expect(await pollRevocations(t.ctx, config, t.app.plugins, true)).toMatchObject({ status: 'accepted' });

      served = older;
      const replayed = await pollRevocations(t.ctx, config, t.app.plugins, true);
      expect(replayed).toMatchObject({ status: 'refused' });
      expect((replayed as { reason: string }).reason).toContain('an old list replayed');

      const current = await list();
      served = {
        ...current,
        revocations: current.revocations.filter(
          (r: { marketplace_id: string }) => r.marketplace_id !== c.marketplaceId,
        ),
      };
      const forged = await pollRevocations(t.ctx, config, t.app.plugins, true);
      expect(forged).toEqual({ status: 'refused', reason: 'the revocation list signature does not verify' });

      served = { ...current, key_id: 'ffffffffffffffff' };
      expect(await pollRevocations(t.ctx, config, t.app.plugins, true)).toMatchObject({ status: 'refused' });

      const notes = (await shopAdmin(t, 'GET', '/admin/notifications?type=marketplace.revocations_refused')).json()
        .notifications;
      expect(notes.some((n: { data: { marketplace_url: string } }) => n.data.marketplace_url === url)).toBe(true);
    } finally {
      server.close();
    }
  });
});
