import { verify as verifySignature } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import { startReceiver, type Receiver } from '../../../../test/webhook-receiver.ts';
import {
  admin,
  freshToken,
  json,
  LICENSE_KEY,
  pay,
  publishedKey,
  publishPaid,
  startCheckout,
  verify,
} from './checkout.testing.ts';
import { LicenseCallbackSender } from '../licenses/callback-sender.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';

let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
});
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(() => t.close());

async function receiver(mode?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(mode);
  receivers.push(r);
  return r;
}

const session = async (id: string) => (await json(t, 'GET', `/store/marketplace/checkout/session/${id}`)).json();
const drainCallbacks = () => t.workers.licenseCallbacks.drain();

describe('paid checkout through the test provider', () => {
  it('runs session → hosted page → pay → license → verified → paid download for that instance only', async () => {
    const item = await publishPaid(t);
    const mid = item.marketplace_id;
    const created = await startCheckout(t, { marketplace_id: mid, instance_id: 'inst_buyer' });
    expect(created).toEqual({
      id: expect.stringMatching(/^mcs_[0-9A-HJKMNP-TV-Z]{26}$/),
      url: `http://market.test/store/marketplace/checkout/test/${created.id}`,
      expires_at: new Date(t.clock.now().getTime() + 30 * 60_000).toISOString(),
    });
    expect(await session(created.id)).toEqual({
      id: created.id,
      status: 'open',
      marketplace_id: mid,
      version: '1.0.0',
      price_eur: 29.9,
      currency: 'eur',
      url: created.url,
      expires_at: created.expires_at,
      paid_at: null,
      license_key: null,
    });

    const page = await t.inject({ method: 'GET', url: created.url.slice('http://market.test'.length) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('Loyalty points');
    expect(page.body).toContain(`<form method="post" action="/store/marketplace/checkout/test/${created.id}/pay">`);
    expect(page.body).toContain('Pay €29.90');

    t.clock.advance(60_000);
    const paid = await pay(t, created.id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.headers['content-type']).toBe('text/html; charset=utf-8');
    const key = /Paid — license key <code>(lic_[0-9A-Z]+)<\/code>/.exec(paid.body)?.[1];
    expect(key).toMatch(LICENSE_KEY);

    const after = await session(created.id);
    expect(after).toMatchObject({ status: 'paid', paid_at: t.clock.now().toISOString(), license_key: key });
    // The hosted page of a paid session shows the key instead of the button.
    const again = await t.inject({ method: 'GET', url: `/store/marketplace/checkout/test/${created.id}` });
    expect(again.body).toContain(key!);
    expect(again.body).not.toContain('<form');

    const verdict = (await verify(t, { license_key: key, marketplace_id: mid, instance_id: 'inst_buyer' })).json();
    expect(verdict).toMatchObject({ valid: true, tier: 'standard', renewed_at: null, token: expect.any(String) });

    const download = `/store/marketplace/download/${mid}/1.0.0`;
    expect((await json(t, 'GET', `${download}?license_key=${key}&instance_id=inst_buyer`)).statusCode).toBe(200);
    const other = await json(t, 'GET', `${download}?license_key=${key}&instance_id=inst_other`);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({
      type: 'forbidden',
      code: 'marketplace_license_required',
      message: 'A valid license for this instance is required',
    });
  });

  it('escapes vendor text on the hosted page', async () => {
    const res = await publish(
      t,
      await packExample('loyalty-points', { id: uniqueSlug('xss'), name: '<script>alert(1)</script>' }),
      { price_eur: '5' },
      { token: await freshToken(t) },
    );
    const created = await startCheckout(t, { marketplace_id: res.json().item.marketplace_id });
    const page = await t.inject({ method: 'GET', url: `/store/marketplace/checkout/test/${created.id}` });
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('&#60;script&#62;');
    expect(page.body).toContain('Pay €5.00');
  });

  it('expires after 30 minutes: the page says so and the pay button is refused', async () => {
    const item = await publishPaid(t);
    const created = await startCheckout(t, { marketplace_id: item.marketplace_id });
    t.clock.advance(30 * 60_000);
    expect((await session(created.id)).status).toBe('expired');
    const page = await t.inject({ method: 'GET', url: `/store/marketplace/checkout/test/${created.id}` });
    expect(page.body).toContain('This checkout has expired');
    expect(page.body).not.toContain('<form');
    const res = await pay(t, created.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'not_allowed',
      code: 'marketplace_checkout_expired',
      message: `Checkout session ${created.id} has expired`,
    });
    expect((await session(created.id)).license_key).toBeNull();
  });

  it('issues one license and one callback however often or concurrently it is paid', async () => {
    const r = await receiver();
    const item = await publishPaid(t);
    const created = await startCheckout(t, { marketplace_id: item.marketplace_id, callback_url: r.url });
    const results = await Promise.all([pay(t, created.id), pay(t, created.id), pay(t, created.id), pay(t, created.id)]);
    expect(results.map((x) => x.statusCode)).toEqual([200, 200, 200, 200]);
    const keys = new Set(results.map((x) => /lic_[0-9A-Z]{26}/.exec(x.body)?.[0]));
    expect(keys.size).toBe(1);
    expect((await pay(t, created.id)).body).toContain([...keys][0]!);

    const list = (
      await admin(t, 'GET', `/admin/marketplace/licenses?marketplace_id=${encodeURIComponent(item.marketplace_id)}`)
    ).json();
    expect(list.count).toBe(1);
    expect(list.licenses[0]).toMatchObject({
      key: [...keys][0],
      checkout_session_id: created.id,
      purchased_by: 'buyer@shop.example',
    });

    await drainCallbacks();
    await drainCallbacks();
    expect(r.requests).toHaveLength(1);
  });
});

describe('license-issued callback', () => {
  it('POSTs the license to the shop, signed with the marketplace Ed25519 key', async () => {
    const r = await receiver();
    const item = await publishPaid(t);
    const created = await startCheckout(t, {
      marketplace_id: item.marketplace_id,
      customer_email: 'owner@shop.example',
      callback_url: `${r.url}/`,
    });
    await pay(t, created.id);
    const { license_key } = await session(created.id);
    expect(r.requests).toHaveLength(0); // sent after commit by the sender, not inside the request
    await drainCallbacks();
    expect(r.requests).toHaveLength(1);
    const got = r.requests[0];
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/admin/marketplace/license-issued');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-service-delivery-id']).toMatch(/^mcb_/);
    expect(JSON.parse(got.body.toString())).toEqual({
      marketplace_id: item.marketplace_id,
      version: '1.0.0',
      license_key,
      purchased_by: 'owner@shop.example',
    });

    const { keyId, key } = await publishedKey(t);
    expect(got.headers['x-service-key-id']).toBe(keyId);
    const m = /^t=(\d+),v1=([0-9a-f]{128})$/.exec(String(got.headers['x-service-signature']));
    expect(m, String(got.headers['x-service-signature'])).not.toBeNull();
    expect(Number(m![1])).toBe(Math.floor(t.clock.now().getTime() / 1000));
    const signed = Buffer.concat([Buffer.from(`${m![1]}.`), got.body]);
    expect(verifySignature(null, signed, key, Buffer.from(m![2], 'hex'))).toBe(true);
    const tampered = Buffer.concat([Buffer.from(`${Number(m![1]) + 1}.`), got.body]);
    expect(verifySignature(null, tampered, key, Buffer.from(m![2], 'hex'))).toBe(false);
  });

  it('retries a failing shop on the webhook schedule with the same delivery id, re-signed each time', async () => {
    const r = await receiver({ status: 500, body: 'down' });
    const item = await publishPaid(t);
    const created = await startCheckout(t, { marketplace_id: item.marketplace_id, callback_url: r.url });
    await pay(t, created.id);
    await drainCallbacks();
    expect(r.requests).toHaveLength(1);

    t.clock.advance(59_000);
    await drainCallbacks();
    expect(r.requests).toHaveLength(1); // not due before a minute
    t.clock.advance(1_000);
    await drainCallbacks();
    expect(r.requests).toHaveLength(2);

    r.mode = { status: 204 };
    t.clock.advance(5 * 60_000);
    await drainCallbacks();
    expect(r.requests).toHaveLength(3);
    const ids = new Set(r.requests.map((x) => x.headers['x-service-delivery-id']));
    expect(ids.size).toBe(1);
    const times = r.requests.map((x) => /^t=(\d+)/.exec(String(x.headers['x-service-signature']))![1]);
    expect(new Set(times).size).toBe(3);

    t.clock.advance(24 * 3_600_000); // succeeded: nothing more, ever
    await drainCallbacks();
    expect(r.requests).toHaveLength(3);
  });

  it('gives up after the last retry and tells the marketplace operator', async () => {
    const r = await receiver({ status: 503 });
    const item = await publishPaid(t);
    const created = await startCheckout(t, { marketplace_id: item.marketplace_id, callback_url: r.url });
    await pay(t, created.id);
    await drainCallbacks();
    for (const minutes of [1, 5, 30, 120, 720]) {
      t.clock.advance(minutes * 60_000);
      await drainCallbacks();
    }
    expect(r.requests).toHaveLength(6);
    t.clock.advance(48 * 3_600_000);
    await drainCallbacks();
    expect(r.requests).toHaveLength(6);
    const notes = (await admin(t, 'GET', '/admin/notifications')).json().notifications;
    const note = notes.find(
      (n: { data: { checkout_session_id?: string } }) => n.data.checkout_session_id === created.id,
    );
    expect(note).toMatchObject({ type: 'marketplace.callback_failed', title: 'License callback failing' });
    expect(note.message).toContain('HTTP 503');
    // The pull path still has the key.
    expect((await session(created.id)).license_key).toMatch(LICENSE_KEY);
  });

  it('is sent by a running sender as soon as the payment commits (NOTIFY, not the poll)', async () => {
    const r = await receiver();
    const sender = new LicenseCallbackSender({
      database: t.database,
      clock: t.clock,
      log: t.app.log,
      encryptionKey: t.config.encryptionKey,
      blockPrivate: false,
      pollMs: 3_600_000,
    });
    await sender.start();
    try {
      const item = await publishPaid(t);
      const created = await startCheckout(t, { marketplace_id: item.marketplace_id, callback_url: r.url });
      await pay(t, created.id);
      await r.waitFor(1); // hangs (and the test times out) unless the commit's NOTIFY woke the sender
      expect(JSON.parse(r.requests[0].body.toString()).marketplace_id).toBe(item.marketplace_id);
    } finally {
      await sender.stop();
    }
  });

  it('is not sent without a callback_url', async () => {
    const r = await receiver();
    const item = await publishPaid(t);
    const created = await startCheckout(t, { marketplace_id: item.marketplace_id });
    await pay(t, created.id);
    await drainCallbacks();
    expect(r.requests).toHaveLength(0);
  });
});

describe('checkout validation', () => {
  it('answers 400 for a free item and 404 for unknown or unpublished items and versions', async () => {
    const free = (
      await publish(
        t,
        await packExample('hello-widget', { id: uniqueSlug('free') }),
        {},
        { token: await freshToken(t) },
      )
    ).json().item;
    const body = { version: '1.0.0', customer_email: 'a@b.example', instance_id: 'i' };
    const res = await json(t, 'POST', '/store/marketplace/checkout/session', {
      ...body,
      marketplace_id: free.marketplace_id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'invalid_data',
      code: 'marketplace_item_free',
      message: `${free.marketplace_id} is free: download it without a checkout`,
    });

    const paid = await publishPaid(t);
    for (const [mid, version] of [
      ['@acme/never-published', '1.0.0'],
      [paid.marketplace_id, '9.9.9'],
      [paid.marketplace_id, '1.0'],
    ]) {
      const r = await json(t, 'POST', '/store/marketplace/checkout/session', { ...body, marketplace_id: mid, version });
      expect(r.statusCode, `${mid} ${version}`).toBe(404);
      expect(r.json().type).toBe('not_found');
    }
    await admin(t, 'POST', `/admin/marketplace/items/${paid.id}/unpublish`);
    expect(
      (await json(t, 'POST', '/store/marketplace/checkout/session', { ...body, marketplace_id: paid.marketplace_id }))
        .statusCode,
    ).toBe(404);
  });

  it('rejects bad bodies with 400 invalid_data', async () => {
    const item = await publishPaid(t);
    const good = {
      marketplace_id: item.marketplace_id,
      version: '1.0.0',
      customer_email: 'a@b.example',
      instance_id: 'i',
    };
    const bad: Record<string, unknown>[] = [
      { ...good, extra: 1 },
      { ...good, customer_email: 'not-an-email' },
      { ...good, instance_id: 42 },
      { ...good, instance_id: '' },
      { ...good, callback_url: 'ftp://shop.example' },
      { ...good, callback_url: 'not a url' },
      { ...good, callback_url: 'https://shop.example/?x=1' },
      { marketplace_id: item.marketplace_id, version: '1.0.0', instance_id: 'i' },
      {},
    ];
    for (const payload of bad) {
      const res = await json(t, 'POST', '/store/marketplace/checkout/session', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
    const malformed = await t.inject({
      method: 'POST',
      url: '/store/marketplace/checkout/session',
      headers: { 'content-type': 'application/json' },
      payload: '{"marketplace_id":',
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('404s unknown sessions on every checkout route, and the Stripe webhook when Stripe is not configured', async () => {
    for (const [method, url] of [
      ['GET', '/store/marketplace/checkout/session/mcs_unknown'],
      ['GET', '/store/marketplace/checkout/test/mcs_unknown'],
      ['POST', '/store/marketplace/checkout/test/mcs_unknown/pay'],
    ]) {
      const res = await json(t, method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().type).toBe('not_found');
    }
    const stripe = await t.inject({
      method: 'POST',
      url: '/store/marketplace/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(stripe.statusCode).toBe(404);
  });

  it('documents the checkout and license routes in the OpenAPI document', async () => {
    const paths = (await json(t, 'GET', '/openapi.json')).json().paths;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/store/marketplace/checkout/session',
        '/store/marketplace/checkout/session/{id}',
        '/store/marketplace/checkout/test/{id}',
        '/store/marketplace/checkout/test/{id}/pay',
        '/store/marketplace/license/verify',
        '/store/marketplace/stripe/webhook',
        '/admin/marketplace/licenses',
        '/admin/marketplace/licenses/{id}/revoke',
        '/admin/marketplace/licenses/{id}/renew',
      ]),
    );
  });
});
