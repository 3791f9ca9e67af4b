import { createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import type { JsonObject } from '../../../platform/providers.ts';
import { installMailbox } from '../../auth/auth.testing.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';
import { signUpVendor, uniqueNamespace } from '../vendors/vendors.testing.ts';
import { revocationListText } from './signed-list.ts';

let t: TestApp;
let sent: JsonObject[];
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
  sent = installMailbox(t);
}, 240_000);
afterAll(() => t.close());

const get = (url: string) => t.inject({ method: 'GET', url });
const asVendor = (token: string, url: string, payload: object) =>
  t.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload });

function verifies(
  list: { sequence: number; issued_at: string; revocations: unknown[]; signature: string },
  publicKey: string,
) {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey, 'base64').toString('base64url') },
    format: 'jwk',
  });
  return verify(null, Buffer.from(revocationListText(list)), key, Buffer.from(list.signature, 'base64'));
}

describe('revocations on the marketplace', () => {
  it('the owning vendor revokes its item; the signed list grows by one and verifies', async () => {
    const v = await signUpVendor(t, sent, uniqueNamespace('rvk'));
    await t.admin('POST', `/admin/marketplace/vendors/${v.id}/trust`, {});
    const id = uniqueSlug('revoked');
    const item = (
      await publish(t, await packExample('order-notes', { id, vendor: v.namespace }), {}, { token: v.token })
    ).json().item;
    const before = (await get('/store/marketplace/revocations')).json();

    expect(
      (await asVendor(v.token, `/admin/marketplace/items/${item.id}/revoke`, { severity: 'fatal', reason: 'x' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await asVendor(v.token, `/admin/marketplace/items/${item.id}/revoke`, { severity: 'critical' })).statusCode,
    ).toBe(400);
    const res = await asVendor(v.token, `/admin/marketplace/items/${item.id}/revoke`, {
      severity: 'critical',
      reason: 'Remote code execution in the webhook handler',
    });
    expect(res.statusCode, res.body).toBe(200);

    const list = (await get('/store/marketplace/revocations')).json();
    expect(list.sequence).toBe(before.sequence + 1);
    expect(list.revocations.at(-1)).toMatchObject({
      sequence: list.sequence,
      kind: 'item',
      marketplace_id: `@${v.namespace}/${id}`,
      version: null,
      severity: 'critical',
      reason: 'Remote code execution in the webhook handler',
    });
    const keys = (await get('/store/marketplace/keys')).json().keys;
    const signer = keys.find((k: { key_id: string }) => k.key_id === list.key_id);
    expect(verifies(list, signer.public_key)).toBe(true);
    expect(verifies({ ...list, sequence: list.sequence - 1 }, signer.public_key)).toBe(false);
    expect((await get(`/store/marketplace/feed/@${v.namespace}/${id}`)).statusCode).toBe(404);
    expect((await get(`/store/marketplace/download/@${v.namespace}/${id}/1.0.0`)).statusCode).toBe(404);
    // A vendor revokes no signing key.
    expect(
      (await asVendor(v.token, `/admin/marketplace/keys/${list.key_id}/revoke`, { severity: 'critical', reason: 'x' }))
        .statusCode,
    ).toBe(403);
  });

  it('the operator revokes a signing key: it is listed, marked revoked, and a new key signs from then on', async () => {
    await publish(t, await packExample('order-notes', { id: uniqueSlug('keyed') }));
    const old = (await get('/store/marketplace/revocations')).json().key_id;
    const res = await t.admin('POST', `/admin/marketplace/keys/${old}/revoke`, {
      severity: 'critical',
      reason: 'Key leaked',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await t.admin('POST', `/admin/marketplace/keys/${old}/revoke`, { severity: 'critical', reason: 'again' }))
        .statusCode,
    ).toBe(404);
    const list = (await get('/store/marketplace/revocations')).json();
    expect(list.key_id).not.toBe(old);
    expect(list.revocations.at(-1)).toMatchObject({ kind: 'key', key_id: old, reason: 'Key leaked' });
    const keys = (await get('/store/marketplace/keys')).json().keys;
    expect(keys.find((k: { key_id: string }) => k.key_id === old).revoked_at).not.toBeNull();
  });
});
