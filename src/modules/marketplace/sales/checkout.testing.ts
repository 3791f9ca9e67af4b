import { createPublicKey, type KeyObject } from 'node:crypto';
import { expect } from 'vitest';
import { ADMIN, type TestApp } from '../../../../test/app.ts';
import { packExample, publish, uniqueSlug } from '../marketplace.testing.ts';

/** Factories for the paid-checkout and license tests (tests only). */

export const LICENSE_KEY = /^lic_[0-9A-HJKMNP-TV-Z]{26}$/;

export const json = (t: TestApp, method: string, url: string, payload?: unknown) =>
  t.inject({ method: method as 'GET', url, ...(payload === undefined ? {} : { payload: payload as object }) });

/** Publishes the paid example plugin under a fresh id (price 29.90 unless told otherwise). */
export async function publishPaid(t: TestApp, price = '29.90'): Promise<{ id: string; marketplace_id: string }> {
  const res = await publish(
    t,
    await packExample('loyalty-points', { id: uniqueSlug('paid') }),
    { price_eur: price },
    { token: await freshToken(t) },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().item;
}

export async function startCheckout(t: TestApp, body: Record<string, unknown>) {
  const res = await json(t, 'POST', '/store/marketplace/checkout/session', {
    version: '1.0.0',
    customer_email: 'buyer@shop.example',
    instance_id: 'inst_a',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; url: string; expires_at: string };
}

/** Presses the test provider's pay button the way a browser does (an empty form post). */
export const pay = (t: TestApp, id: string) =>
  t.inject({
    method: 'POST',
    url: `/store/marketplace/checkout/test/${id}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });

/** A paid license through the test provider: the key and the checkout id. */
export async function buyLicense(
  t: TestApp,
  marketplaceId: string,
  instanceId = 'inst_a',
): Promise<{ key: string; checkoutId: string }> {
  const session = await startCheckout(t, { marketplace_id: marketplaceId, instance_id: instanceId });
  expect((await pay(t, session.id)).statusCode).toBe(200);
  const key = (await json(t, 'GET', `/store/marketplace/checkout/session/${session.id}`)).json().license_key;
  expect(key).toMatch(LICENSE_KEY);
  return { key, checkoutId: session.id };
}

export const verify = (t: TestApp, body: Record<string, unknown>) =>
  json(t, 'POST', '/store/marketplace/license/verify', body);

/** The marketplace's published Ed25519 key (`/store/marketplace/keys`), as a node KeyObject. */
export async function publishedKey(t: TestApp): Promise<{ keyId: string; raw: string; key: KeyObject }> {
  const [k] = (await json(t, 'GET', '/store/marketplace/keys')).json().keys;
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(k.public_key, 'base64').toString('base64url') },
    format: 'jwk',
  });
  return { keyId: k.key_id, raw: k.public_key, key };
}

/** An admin token fresh on the fake clock: these tests move it by days, past the harness token's 24 h. */
export async function freshToken(t: TestApp): Promise<string> {
  return (await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN })).json().token;
}

export async function admin(t: TestApp, method: string, url: string, body?: Record<string, unknown>) {
  return t.admin(method, url, body, { token: await freshToken(t) });
}
