import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { rows } from '../../platform/db/database.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function create(body: Record<string, unknown> = {}) {
  const res = await t.admin('POST', '/admin/webhooks', {
    url: 'https://hooks.example.com/in',
    events: ['order.placed'],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().webhook;
}

describe('create', () => {
  it('answers the webhook with a generated secret, once', async () => {
    const res = await t.admin('POST', '/admin/webhooks', {
      url: 'https://hooks.example.com/orders',
      events: ['order.placed', 'order.*', '*'],
    });
    expect(res.statusCode).toBe(200);
    const hook = res.json().webhook;
    expect(hook).toEqual({
      id: expect.stringMatching(/^wh_/),
      url: 'https://hooks.example.com/orders',
      events: ['order.placed', 'order.*', '*'],
      active: true,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
      signing_secret: expect.stringMatching(/^whsec_[\w-]{43}$/),
    });

    const got = await t.admin('GET', `/admin/webhooks/${hook.id}`);
    expect(got.statusCode).toBe(200);
    const { signing_secret: _secret, ...rest } = hook;
    expect(got.json()).toEqual({ webhook: rest });
  });

  it('keeps a given secret, stores it encrypted under ENCRYPTION_KEY and never lists it', async () => {
    const secret = 'my-own-signing-secret-123';
    const hook = await create({ signing_secret: secret, events: ['product.created', 'product.created'] });
    expect(hook.signing_secret).toBe(secret);
    expect(hook.events).toEqual(['product.created']);

    const [stored] = await rows<{ secret_encrypted: string }>(
      t.database.db,
      sql`select secret_encrypted from webhook_subscriptions where id = ${hook.id}`,
    );
    expect(stored.secret_encrypted).not.toContain(secret);
    expect(stored.secret_encrypted).toMatch(/^v2\./);
    expect(decryptSecret(t.config.encryptionKey, stored.secret_encrypted)).toBe(secret);

    for (const res of [
      await t.admin('GET', '/admin/webhooks?limit=1000'),
      await t.admin('GET', `/admin/webhooks/${hook.id}`),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain('signing_secret');
      expect(res.body).not.toContain('secret_encrypted');
    }
  });

  it.each([
    [{ events: ['order.exploded'] }, /unknown event names: "order.exploded"/],
    [{ events: ['orders.*'] }, /unknown event names: "orders.\*"/],
    [{ events: ['order'] }, /unknown event names: "order"/],
    [{ events: [] }, /events/],
    [{ url: 'ftp://hooks.example.com/x' }, /must use http or https, got 'ftp'/],
    [{ url: 'javascript:alert(1)' }, /must use http or https/],
    [{ url: 'not a url' }, /absolute http or https URL/],
    [{ url: `https://example.com/${'a'.repeat(2048)}` }, /url/],
    [{ signing_secret: 'short' }, /signing_secret/],
    [{ signing_secret: 42 }, /signing_secret/],
    [{ events: 'order.placed' }, /events/],
    [{ active: false }, /active/],
    [{ extra: 1 }, /extra/],
  ])('rejects %j', async (patch, message) => {
    const res = await t.admin('POST', '/admin/webhooks', {
      url: 'https://hooks.example.com/in',
      events: ['order.placed'],
      ...patch,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ type: 'invalid_data', message: expect.stringMatching(message) });
  });

  it.each([['url'], ['events']])('requires %s', async (field) => {
    const body: Record<string, unknown> = { url: 'https://hooks.example.com/in', events: ['order.placed'] };
    delete body[field];
    const res = await t.admin('POST', '/admin/webhooks', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('allows loopback targets outside production', async () => {
    const hook = await create({ url: 'http://127.0.0.1:9/hook' });
    expect(hook.url).toBe('http://127.0.0.1:9/hook');
  });
});

describe('list, update, delete', () => {
  it('lists newest last with pagination edges', async () => {
    const a = await create();
    const b = await create();
    const all = (await t.admin('GET', '/admin/webhooks?limit=1000')).json();
    expect(all.limit).toBe(1000);
    const ids = all.webhooks.map((w: { id: string }) => w.id);
    expect(ids.indexOf(b.id)).toBeGreaterThan(ids.indexOf(a.id));
    expect(all.count).toBe(all.webhooks.length);

    const zero = (await t.admin('GET', '/admin/webhooks?limit=0')).json();
    expect(zero).toEqual({ webhooks: [], count: all.count, limit: 0, offset: 0 });
    const past = (await t.admin('GET', `/admin/webhooks?offset=${all.count}`)).json();
    expect(past).toEqual({ webhooks: [], count: all.count, limit: 20, offset: all.count });
    expect((await t.admin('GET', '/admin/webhooks?limit=5000')).json().limit).toBe(1000);
    expect((await t.admin('GET', '/admin/webhooks?limit=-1')).statusCode).toBe(400);
  });

  it.each(['POST', 'PATCH'])('updates url, events and active with %s', async (method) => {
    const hook = await create();
    t.clock.advance(1000);
    const res = await t.admin(method, `/admin/webhooks/${hook.id}`, {
      url: 'https://other.example.com/x',
      events: ['cart.*'],
      active: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().webhook).toMatchObject({
      id: hook.id,
      url: 'https://other.example.com/x',
      events: ['cart.*'],
      active: false,
    });
    expect(res.json().webhook.updated_at).toBe(t.clock.now().toISOString());
    expect(res.json().webhook).not.toHaveProperty('signing_secret');
  });

  it('validates updates and refuses changing the secret', async () => {
    const hook = await create();
    for (const body of [
      { signing_secret: 'new-secret-value' },
      { events: ['nope.*'] },
      { url: 'file:///etc/passwd' },
      { active: 'yes' },
    ]) {
      const res = await t.admin('PATCH', `/admin/webhooks/${hook.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.admin('PATCH', '/admin/webhooks/wh_missing', { active: false })).statusCode).toBe(404);
  });

  it('deletes: 404 afterwards, gone from the list', async () => {
    const hook = await create();
    const res = await t.admin('DELETE', `/admin/webhooks/${hook.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: hook.id, object: 'webhook', deleted: true });
    expect((await t.admin('GET', `/admin/webhooks/${hook.id}`)).json()).toEqual({
      type: 'not_found',
      code: 'webhook_not_found',
      message: `Webhook with id: ${hook.id} not found`,
    });
    expect((await t.admin('DELETE', `/admin/webhooks/${hook.id}`)).statusCode).toBe(404);
    expect((await t.admin('GET', `/admin/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
    const list = (await t.admin('GET', '/admin/webhooks?limit=1000')).json();
    expect(list.webhooks.map((w: { id: string }) => w.id)).not.toContain(hook.id);
  });

  it('404s unknown ids on every route', async () => {
    for (const [method, url] of [
      ['GET', '/admin/webhooks/wh_nope'],
      ['GET', '/admin/webhooks/wh_nope/deliveries'],
      ['GET', '/admin/webhooks/wh_nope/deliveries/whd_nope'],
      ['POST', '/admin/webhooks/wh_nope/deliveries/whd_nope/retry'],
      ['POST', '/admin/webhooks/wh_nope/deliveries/replay-dead'],
    ]) {
      const res = await t.admin(method, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().type).toBe('not_found');
    }
    const hook = await create();
    const res = await t.admin('GET', `/admin/webhooks/${hook.id}/deliveries/whd_nope`);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'webhook_delivery_not_found',
      message: 'Webhook delivery with id: whd_nope not found',
    });
  });
});

describe('access', () => {
  it('401s without a token', async () => {
    const res = await t.inject({ method: 'GET', url: '/admin/webhooks' });
    expect(res.statusCode).toBe(401);
  });

  it('lets a viewer read but not write, and never shows the secret', async () => {
    const hook = await create();
    const viewer = { token: t.viewerToken };
    const list = await t.admin('GET', '/admin/webhooks', undefined, viewer);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('secret');
    for (const [method, url, body] of [
      ['POST', '/admin/webhooks', { url: 'https://x.example.com', events: ['*'] }],
      ['PATCH', `/admin/webhooks/${hook.id}`, { active: false }],
      ['DELETE', `/admin/webhooks/${hook.id}`, undefined],
      ['POST', `/admin/webhooks/${hook.id}/deliveries/replay-dead`, undefined],
      ['POST', `/admin/webhooks/${hook.id}/deliveries/whd_x/retry`, undefined],
    ] as const) {
      const res = await t.admin(method, url, body, viewer);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().type).toBe('forbidden');
    }
  });
});
