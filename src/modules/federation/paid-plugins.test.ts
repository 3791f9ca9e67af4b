import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyThroughShop,
  licenseKeyOf,
  licenseRow,
  payOnMarketplace,
  publishPaidPlugin,
  shopAdmin,
  signedCallback,
  startPaidWorld,
  type PaidWorld,
  shopPluginOf,
  checkLicenses,
} from './paid.testing.ts';

let w: PaidWorld;
beforeAll(async () => {
  w = await startPaidWorld();
});
afterAll(async () => {
  await w.close();
});

const DAY = 24 * 3_600_000;
const pluginOf = (mid: string) => shopPluginOf(w.t, mid);
const check = () => checkLicenses(w.t);
const post = (url: string, payload: string, headers: Record<string, string>) =>
  w.t.inject({ method: 'POST', url, payload, headers });

describe('paid plugin purchase', () => {
  it('checkout → pay → signed callback reaches the shop → installed with the license', async () => {
    const { marketplaceId, id } = await publishPaidPlugin(w.m);
    const session = await buyThroughShop(w, marketplaceId);
    expect(session.url).toContain(`/store/marketplace/checkout/test/${session.id}`);
    expect(await pluginOf(marketplaceId)).toBeUndefined();
    const before = w.sender.stats.succeeded;
    await w.sender.drain();
    expect(w.sender.stats.succeeded).toBe(before + 1);
    await w.t.app.plugins.settled();
    const p = await pluginOf(marketplaceId);
    expect(p).toMatchObject({ status: 'installed', licensed: true, manifest_id: id });
    expect(w.t.app.plugins.host.isLoaded(id, p!.id)).toBeTruthy();
  });

  it('GET /admin/plugins/license-checks: when each license was last verified and until when it works offline', async () => {
    const { marketplaceId } = await publishPaidPlugin(w.m);
    await buyThroughShop(w, marketplaceId);
    await w.sender.drain();
    await w.t.app.plugins.settled();
    const p = await pluginOf(marketplaceId);
    const res = await shopAdmin(w.t, 'GET', '/admin/plugins/license-checks');
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().license_checks.find((c: { plugin_id: string }) => c.plugin_id === p!.id);
    const verified = new Date(entry.last_verified_at).getTime();
    expect(new Date(entry.grace_until).getTime() - verified).toBe(7 * DAY);
    expect(new Date(entry.license_expires_at).getTime()).toBeGreaterThan(verified + 300 * DAY);
  });

  it('checkout validation, unfederated fields and marketplace errors', async () => {
    expect(
      (await shopAdmin(w.t, 'POST', '/admin/marketplace/checkout', { marketplace_id: '@acme/x', version: '1.0.0' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await shopAdmin(w.t, 'POST', '/admin/marketplace/checkout', {
          marketplace_id: '@acme/x',
          version: '1.0.0',
          customer_email: 'a@b.example',
          extra: 1,
        })
      ).statusCode,
    ).toBe(400);
    const missing = await shopAdmin(w.t, 'POST', '/admin/marketplace/checkout', {
      marketplace_id: '@acme/nope',
      version: '1.0.0',
      customer_email: 'a@b.example',
    });
    expect(missing.statusCode).toBe(404);
    expect((await w.t.inject({ method: 'POST', url: '/admin/marketplace/checkout', payload: {} })).statusCode).toBe(
      401,
    );
    expect(
      (
        await w.t.admin(
          'POST',
          '/admin/marketplace/checkout',
          { marketplace_id: '@acme/x', version: '1.0.0', customer_email: 'a@b.example' },
          { token: w.t.viewerToken },
        )
      ).statusCode,
    ).toBe(403);
    w.m.failWith = 503;
    try {
      const down = await shopAdmin(w.t, 'POST', '/admin/marketplace/checkout', {
        marketplace_id: '@acme/x',
        version: '1.0.0',
        customer_email: 'a@b.example',
      });
      expect(down.statusCode).toBe(502);
      expect((await shopAdmin(w.t, 'GET', '/admin/marketplace/checkout/mcs_X')).statusCode).toBe(502);
    } finally {
      w.m.failWith = null;
    }
  });

  it('the callback is authenticated only by a fresh, unreplayed marketplace signature', async () => {
    const { marketplaceId } = await publishPaidPlugin(w.m);
    const session = await buyThroughShop(w, marketplaceId);
    const body = JSON.stringify({
      marketplace_id: marketplaceId,
      version: '1.0.0',
      license_key: await licenseKeyOf(w.m, session.id),
      purchased_by: 'operator@shop.example',
    });
    const url = '/admin/marketplace/license-issued';
    expect((await post(url, body, { 'content-type': 'application/json' })).statusCode).toBe(401);
    expect(
      (await post(url, body, { 'content-type': 'application/json', authorization: `Bearer ${w.t.adminToken}` }))
        .statusCode,
    ).toBe(401);
    const other = await signedCallback(w.m, body.replace('operator@', 'mallory@'));
    expect((await post(url, body, other)).statusCode).toBe(401);
    const old = await signedCallback(w.m, body, new Date(w.t.clock.now().getTime() - 6 * 60_000));
    expect((await post(url, body, old)).json()).toEqual({
      type: 'unauthorized',
      code: 'unauthorized',
      message: 'Unauthorized',
    });
    expect(
      (await post(url, body, await signedCallback(w.m, body, new Date(w.t.clock.now().getTime() + 6 * 60_000))))
        .statusCode,
    ).toBe(401);
    const bad = JSON.stringify({ marketplace_id: marketplaceId, version: '1.0.0' });
    expect((await post(url, bad, await signedCallback(w.m, bad))).statusCode).toBe(400);
    expect(await pluginOf(marketplaceId)).toBeUndefined();

    const good = await signedCallback(w.m, body, new Date(w.t.clock.now().getTime() - 4 * 60_000));
    const res = await post(url, body, good);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, plugin_id: expect.stringMatching(/^plg_/) });
    expect((await post(url, body, good)).statusCode).toBe(401); // the same delivery again: a replay
    // The same signature with its time written another way (`t=0…` reads as the same number) and
    // another delivery id is the same delivery too.
    for (const zeros of ['0', '00']) {
      const again = {
        ...good,
        'x-service-signature': good['x-service-signature'].replace('t=', `t=${zeros}`),
        'x-service-delivery-id': `mcb_again_${zeros}`,
      };
      expect((await post(url, body, again)).statusCode, zeros).toBe(401);
    }
    await w.t.app.plugins.settled();
    expect(await pluginOf(marketplaceId)).toMatchObject({
      id: res.json().plugin_id,
      status: 'installed',
      licensed: true,
    });
    // The marketplace's own (later) delivery of the same purchase is accepted and changes nothing.
    await w.sender.drain();
    expect(
      (await shopAdmin(w.t, 'GET', '/admin/plugins'))
        .json()
        .plugins.filter((p: { marketplace_id: string }) => p.marketplace_id === marketplaceId),
    ).toHaveLength(1);
  });

  it('polling the checkout installs when the callback is lost, once', async () => {
    const { marketplaceId } = await publishPaidPlugin(w.m);
    const session = await buyThroughShop(w, marketplaceId, { pay: false });
    const open = (await shopAdmin(w.t, 'GET', `/admin/marketplace/checkout/${session.id}`)).json();
    expect(open).toMatchObject({
      checkout: { id: session.id, status: 'open', marketplace_id: marketplaceId },
      plugin_id: null,
    });
    await payOnMarketplace(w.m, session.id);
    const paid = (await shopAdmin(w.t, 'GET', `/admin/marketplace/checkout/${session.id}`)).json();
    expect(paid.checkout.status).toBe('paid');
    expect(paid.plugin_id).toMatch(/^plg_/);
    await w.t.app.plugins.settled();
    expect(await pluginOf(marketplaceId)).toMatchObject({ id: paid.plugin_id, status: 'installed', licensed: true });
    expect((await shopAdmin(w.t, 'GET', `/admin/marketplace/checkout/${session.id}`)).json().plugin_id).toBe(
      paid.plugin_id,
    );
    expect((await shopAdmin(w.t, 'GET', '/admin/marketplace/checkout/mcs_UNKNOWN')).statusCode).toBe(404);
    expect((await shopAdmin(w.t, 'GET', '/admin/marketplace/checkout/bad%2Fid')).statusCode).toBe(400);
  });
});

describe('license checks', () => {
  async function installedPaid() {
    const { marketplaceId, id } = await publishPaidPlugin(w.m);
    const session = await buyThroughShop(w, marketplaceId);
    const key = await licenseKeyOf(w.m, session.id);
    await shopAdmin(w.t, 'GET', `/admin/marketplace/checkout/${session.id}`);
    await w.t.app.plugins.settled();
    const p = (await pluginOf(marketplaceId))!;
    expect(p.status).toBe('installed');
    return { marketplaceId, id, key, plugin: p };
  }

  it('a revoked license disables the plugin with plugin.license_failed and a notification', async () => {
    const { marketplaceId, id, key, plugin } = await installedPaid();
    const failed: unknown[] = [];
    w.t.workers.bus.on('plugin.license_failed', async (e) => void failed.push(e.payload));
    const lic = await licenseRow(w.m, marketplaceId, key);
    await w.m.app.inject({
      method: 'POST',
      url: `/admin/marketplace/licenses/${lic.id}/revoke`,
      headers: { authorization: `Bearer ${lic.token}` },
    });
    await check();
    const p = (await pluginOf(marketplaceId))!;
    expect(p).toMatchObject({ status: 'disabled', error: 'License check failed: revoked' });
    expect(w.t.app.plugins.host.isLoaded(id, plugin.id)).toBeUndefined();
    await w.t.workers.dispatcher.drain();
    expect(failed).toContainEqual(expect.objectContaining({ id: plugin.id, reason: 'revoked' }));
    const notes = (await shopAdmin(w.t, 'GET', '/admin/notifications?type=plugin.license_failed')).json().notifications;
    const note = notes.find((n: { data: { plugin_id: string } }) => n.data.plugin_id === plugin.id);
    expect(note.message).toContain('revoked');
    expect(note.message).toContain('contact them or buy a new one');
    await check(); // same reason, same day: no second notification, no second event
    await w.t.workers.dispatcher.drain();
    expect(failed.filter((e) => (e as { id: string }).id === plugin.id)).toHaveLength(1);
  });

  it('an expired license disables; renewing it re-enables and reloads the plugin', async () => {
    const { marketplaceId, id, key, plugin } = await installedPaid();
    const start = w.m.clock.now();
    w.m.clock.advance(366 * DAY);
    try {
      await check();
      expect(await pluginOf(marketplaceId)).toMatchObject({
        status: 'disabled',
        error: 'License check failed: expired',
      });
      const lic = await licenseRow(w.m, marketplaceId, key);
      expect(
        (
          await w.m.app.inject({
            method: 'POST',
            url: `/admin/marketplace/licenses/${lic.id}/renew`,
            headers: { authorization: `Bearer ${lic.token}` },
          })
        ).statusCode,
      ).toBe(200);
      await check();
      expect(await pluginOf(marketplaceId)).toMatchObject({ status: 'installed', error: null });
      expect(w.t.app.plugins.host.isLoaded(id, plugin.id)).toBeTruthy();
    } finally {
      w.m.clock.set(start);
    }
  });

  it('marketplace unreachable: the last verification holds 6 days, not 8 (runs last: stops the marketplace)', async () => {
    const { marketplaceId, id, plugin } = await installedPaid();
    await check();
    await w.m.close();
    w.t.clock.advance(6 * DAY);
    await check();
    expect(await pluginOf(marketplaceId)).toMatchObject({ status: 'installed' });
    expect(w.t.app.plugins.host.isLoaded(id, plugin.id)).toBeTruthy();
    w.t.clock.advance(2 * DAY);
    await check();
    expect(await pluginOf(marketplaceId)).toMatchObject({
      status: 'disabled',
      error: 'License check failed: unreachable',
    });
    expect(w.t.app.plugins.host.isLoaded(id, plugin.id)).toBeUndefined();
    const notes = (await shopAdmin(w.t, 'GET', '/admin/notifications?type=plugin.license_failed')).json().notifications;
    expect(notes.find((n: { data: { plugin_id: string } }) => n.data.plugin_id === plugin.id).message).toContain(
      'could not be reached for 7 days',
    );
  });
});
