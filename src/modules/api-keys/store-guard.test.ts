import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const MISSING =
  'Publishable API key required in the request header: x-publishable-api-key. You can manage your keys in settings in the dashboard.';
const INVALID = {
  type: 'unauthorized',
  code: 'publishable_key_invalid',
  message: 'A valid publishable key is required to proceed with the request',
};

// Any real store route shows the guard; /store/regions needs nothing but the key.
const storeGet = (key: string | null) => t.store('GET', '/store/regions', undefined, { key });

async function newKey(): Promise<{ id: string; token: string }> {
  const res = await t.admin('POST', '/admin/api-keys', { title: 'store', type: 'publishable' });
  expect(res.statusCode).toBe(200);
  return res.json().api_key;
}

describe('store guard', () => {
  it('answers with the default key', async () => {
    expect((await storeGet(t.publishableKey)).statusCode).toBe(200);
  });

  it('requires the header, with Medusa exact message', async () => {
    for (const key of [null, '']) {
      const res = await storeGet(key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ type: 'not_allowed', code: 'publishable_key_missing', message: MISSING });
    }
  });

  it('refuses unknown keys and secret keys with 401', async () => {
    const unknown = await storeGet(`pk_${'0'.repeat(64)}`);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(INVALID);
    const secret = (await t.admin('POST', '/admin/api-keys', { title: 's', type: 'secret' })).json().api_key;
    expect((await storeGet(secret.token)).statusCode).toBe(401);
  });

  it('refuses a key right after it is revoked, though it was just used', async () => {
    const key = await newKey();
    expect((await storeGet(key.token)).statusCode).toBe(200);
    await t.admin('POST', `/admin/api-keys/${key.id}/revoke`, {});
    const res = await storeGet(key.token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  });

  it('honours a scheduled revocation when its time comes', async () => {
    const key = await newKey();
    await t.admin('POST', `/admin/api-keys/${key.id}/revoke`, { revoke_in: 60 });
    expect((await storeGet(key.token)).statusCode).toBe(200);
    t.clock.advance(59_000);
    expect((await storeGet(key.token)).statusCode).toBe(200);
    t.clock.advance(2_000);
    expect((await storeGet(key.token)).statusCode).toBe(401);
  });

  it('refuses a deleted key', async () => {
    const key = await newKey();
    await t.admin('POST', `/admin/api-keys/${key.id}/revoke`, { revoke_in: 5 });
    expect((await storeGet(key.token)).statusCode).toBe(200);
    t.clock.advance(6_000);
    expect((await t.admin('DELETE', `/admin/api-keys/${key.id}`)).statusCode).toBe(200);
    expect((await storeGet(key.token)).statusCode).toBe(401);
  });
});
