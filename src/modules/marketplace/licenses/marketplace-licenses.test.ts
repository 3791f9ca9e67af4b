import { importJWK, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, VIEWER, type TestApp } from '../../../../test/app.ts';
import { admin, buyLicense, freshToken, json, publishedKey, publishPaid, verify } from '../sales/checkout.testing.ts';
import { MARKETPLACE_ENV } from '../marketplace.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
});
afterAll(() => t.close());

const DAY = 24 * 3_600_000;
const download = (mid: string, key: string, instance: string) =>
  json(t, 'GET', `/store/marketplace/download/${mid}/1.0.0?license_key=${key}&instance_id=${instance}`);

async function licenseRow(mid: string) {
  const res = await admin(t, 'GET', `/admin/marketplace/licenses?marketplace_id=${encodeURIComponent(mid)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().licenses[0];
}

describe('POST /store/marketplace/license/verify', () => {
  it('answers valid with expiry, tier and an EdDSA token verifiable with the published key', async () => {
    const item = await publishPaid(t);
    const { key } = await buyLicense(t, item.marketplace_id, 'inst_a');
    const res = await verify(t, { license_key: key, marketplace_id: item.marketplace_id, instance_id: 'inst_a' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const expiresAt = new Date(t.clock.now().getTime() + 365 * DAY);
    expect(body).toEqual({
      valid: true,
      expires_at: expiresAt.toISOString(),
      tier: 'standard',
      renewed_at: null,
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
    });

    const { keyId, raw } = await publishedKey(t);
    const jwk = await importJWK(
      { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw, 'base64').toString('base64url') },
      'EdDSA',
    );
    const { payload, protectedHeader } = await jwtVerify(body.token, jwk, {
      currentDate: t.clock.now(),
      issuer: 'http://market.test',
    });
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: keyId, typ: 'JWT' });
    expect(payload).toEqual({
      marketplace_id: item.marketplace_id,
      instance_id: 'inst_a',
      tier: 'standard',
      iss: 'http://market.test',
      iat: Math.floor(t.clock.now().getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    });
    const [h, p, s] = body.token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, instance_id: 'inst_b' })).toString('base64url')}.${s}`;
    await expect(jwtVerify(forged, jwk, { currentDate: t.clock.now() })).rejects.toThrow();
    expect(p).toBeTruthy();
  });

  it('answers unknown for a key that does not exist or belongs to another item', async () => {
    const item = await publishPaid(t);
    const other = await publishPaid(t);
    const { key } = await buyLicense(t, item.marketplace_id, 'inst_a');
    for (const body of [
      { license_key: 'lic_0000000000000000000000000Z', marketplace_id: item.marketplace_id, instance_id: 'inst_a' },
      { license_key: key.toLowerCase(), marketplace_id: item.marketplace_id, instance_id: 'inst_a' },
      { license_key: key, marketplace_id: other.marketplace_id, instance_id: 'inst_a' },
      { license_key: key, marketplace_id: '@acme/nothing-here', instance_id: 'inst_a' },
    ]) {
      const res = await verify(t, body);
      expect(res.statusCode).toBe(200);
      expect(res.json(), JSON.stringify(body)).toEqual({ valid: false, reason: 'unknown' });
    }
    expect((await download(other.marketplace_id, key, 'inst_a')).statusCode).toBe(403);
  });

  it('checks revoked before the instance, the instance before the expiry', async () => {
    const item = await publishPaid(t);
    const mid = item.marketplace_id;
    const a = await buyLicense(t, mid, 'inst_a');
    const b = await buyLicense(t, mid, 'inst_b');
    const reason = async (key: string, instance: string) =>
      (await verify(t, { license_key: key, marketplace_id: mid, instance_id: instance })).json();

    expect(await reason(a.key, 'inst_b')).toEqual({ valid: false, reason: 'wrong_instance' });
    const row = (await admin(t, 'GET', `/admin/marketplace/licenses?marketplace_id=${encodeURIComponent(mid)}`))
      .json()
      .licenses.find((l: { key: string }) => l.key === a.key);
    expect((await admin(t, 'POST', `/admin/marketplace/licenses/${row.id}/revoke`)).statusCode).toBe(200);
    expect(await reason(a.key, 'inst_a')).toEqual({ valid: false, reason: 'revoked' });
    expect(await reason(a.key, 'inst_b')).toEqual({ valid: false, reason: 'revoked' });
    expect((await download(mid, a.key, 'inst_a')).statusCode).toBe(403);

    expect((await download(mid, b.key, 'inst_b')).statusCode).toBe(200);
    t.clock.advance(365 * DAY - 1000);
    expect((await reason(b.key, 'inst_b')).valid).toBe(true);
    t.clock.advance(1000);
    expect(await reason(b.key, 'inst_b')).toEqual({ valid: false, reason: 'expired' });
    expect(await reason(b.key, 'inst_a')).toEqual({ valid: false, reason: 'wrong_instance' });
    expect((await download(mid, b.key, 'inst_b')).statusCode).toBe(403);
  });

  it('rejects malformed requests with 400', async () => {
    const good = { license_key: 'lic_x', marketplace_id: '@acme/x', instance_id: 'i' };
    for (const body of [
      { ...good, extra: true },
      { ...good, license_key: 1 },
      { marketplace_id: '@acme/x', instance_id: 'i' },
      { ...good, instance_id: '' },
    ]) {
      const res = await verify(t, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
  });
});

describe('marketplace admin: licenses', () => {
  it('lists licenses newest first, filtered by item, with the Medusa pagination envelope', async () => {
    const item = await publishPaid(t);
    const mid = item.marketplace_id;
    const keys: string[] = [];
    for (const instance of ['i1', 'i2', 'i3']) keys.push((await buyLicense(t, mid, instance)).key);
    const q = `marketplace_id=${encodeURIComponent(mid)}`;
    const all = (await admin(t, 'GET', `/admin/marketplace/licenses?${q}`)).json();
    expect(all).toMatchObject({ count: 3, limit: 20, offset: 0 });
    expect(all.licenses.map((l: { key: string }) => l.key)).toEqual([...keys].reverse());
    expect(all.licenses[0]).toEqual({
      id: expect.stringMatching(/^mlic_/),
      key: keys[2],
      marketplace_id: mid,
      instance_id: 'i3',
      tier: 'standard',
      status: 'active',
      purchased_by: 'buyer@shop.example',
      expires_at: new Date(t.clock.now().getTime() + 365 * DAY).toISOString(),
      renewed_at: null,
      revoked_at: null,
      checkout_session_id: expect.stringMatching(/^mcs_/),
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    expect((await admin(t, 'GET', `/admin/marketplace/licenses?${q}&limit=0`)).json()).toMatchObject({
      licenses: [],
      count: 3,
      limit: 0,
    });
    expect(
      (await admin(t, 'GET', `/admin/marketplace/licenses?${q}&limit=1&offset=1`))
        .json()
        .licenses.map((l: { key: string }) => l.key),
    ).toEqual([keys[1]]);
    expect((await admin(t, 'GET', `/admin/marketplace/licenses?${q}&offset=10`)).json()).toMatchObject({
      licenses: [],
      count: 3,
    });
    expect((await admin(t, 'GET', `/admin/marketplace/licenses?${q}&limit=5000`)).json().limit).toBe(1000);
    expect((await admin(t, 'GET', '/admin/marketplace/licenses?marketplace_id=@acme/none')).json()).toMatchObject({
      licenses: [],
      count: 0,
    });
    expect((await admin(t, 'GET', '/admin/marketplace/licenses?limit=-1')).statusCode).toBe(400);
    const one = await admin(t, 'GET', `/admin/marketplace/licenses/${all.licenses[0].id}`);
    expect(one.json()).toEqual({ license: all.licenses[0] });
  });

  it('revokes (idempotently) and renews from the expiry, or from now once lapsed', async () => {
    const item = await publishPaid(t);
    const { key } = await buyLicense(t, item.marketplace_id, 'inst_r');
    const lic = await licenseRow(item.marketplace_id);
    const expires = new Date(lic.expires_at).getTime();

    t.clock.advance(DAY);
    const renewed = (await admin(t, 'POST', `/admin/marketplace/licenses/${lic.id}/renew`, { days: 30 })).json()
      .license;
    expect(renewed).toMatchObject({
      expires_at: new Date(expires + 30 * DAY).toISOString(),
      renewed_at: t.clock.now().toISOString(),
      status: 'active',
    });
    const v = (
      await verify(t, { license_key: key, marketplace_id: item.marketplace_id, instance_id: 'inst_r' })
    ).json();
    expect(v).toMatchObject({ valid: true, renewed_at: t.clock.now().toISOString(), expires_at: renewed.expires_at });

    t.clock.set(new Date(expires + 40 * DAY)); // lapsed ten days ago
    expect((await licenseRow(item.marketplace_id)).status).toBe('expired');
    const noBody = await t.inject({
      method: 'POST',
      url: `/admin/marketplace/licenses/${lic.id}/renew`,
      headers: { authorization: `Bearer ${await freshToken(t)}` },
    });
    expect(noBody.statusCode, noBody.body).toBe(200);
    expect(noBody.json().license).toMatchObject({
      status: 'active',
      expires_at: new Date(t.clock.now().getTime() + 365 * DAY).toISOString(),
    });

    const revoked = (await admin(t, 'POST', `/admin/marketplace/licenses/${lic.id}/revoke`)).json().license;
    expect(revoked).toMatchObject({ status: 'revoked', revoked_at: t.clock.now().toISOString() });
    t.clock.advance(60_000);
    expect((await admin(t, 'POST', `/admin/marketplace/licenses/${lic.id}/revoke`)).json().license.revoked_at).toBe(
      revoked.revoked_at,
    );
    const refused = await admin(t, 'POST', `/admin/marketplace/licenses/${lic.id}/renew`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      type: 'not_allowed',
      code: 'marketplace_license_revoked',
      message: `License ${lic.id} is revoked and cannot be renewed`,
    });
  });

  it('validates, 404s and guards the admin routes', async () => {
    const item = await publishPaid(t);
    await buyLicense(t, item.marketplace_id, 'inst_g');
    const lic = await licenseRow(item.marketplace_id);
    for (const body of [{ days: 0 }, { days: 3651 }, { days: '30' }, { days: 1.5 }, { extra: 1 }]) {
      const res = await admin(t, 'POST', `/admin/marketplace/licenses/${lic.id}/renew`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
    for (const [method, url] of [
      ['GET', '/admin/marketplace/licenses/mlic_unknown'],
      ['POST', '/admin/marketplace/licenses/mlic_unknown/revoke'],
      ['POST', '/admin/marketplace/licenses/mlic_unknown/renew'],
    ]) {
      const res = await admin(t, method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({
        type: 'not_found',
        code: 'marketplace_license_not_found',
        message: 'License with id: mlic_unknown was not found',
      });
    }
    expect((await t.inject({ method: 'GET', url: '/admin/marketplace/licenses' })).statusCode).toBe(401);
    const viewer = (await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: VIEWER })).json().token;
    expect((await t.admin('GET', '/admin/marketplace/licenses', undefined, { token: viewer })).statusCode).toBe(200);
    const write = await t.admin('POST', `/admin/marketplace/licenses/${lic.id}/revoke`, undefined, { token: viewer });
    expect(write.statusCode).toBe(403);
    expect((await licenseRow(item.marketplace_id)).revoked_at).toBeNull();
  });
});
