import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../test/app.ts';
import { buildApp } from '../../app.ts';
import type { App } from '../../platform/http/types.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'prod-jwt-secret-0123456789abcdef',
  COOKIE_SECRET: 'prod-cookie-secret-0123456789',
  ENCRYPTION_KEY: 'prod-encryption-key-0123456789abcdef',
};

let t: TestApp;
/** A second app on the same database and secrets, with WEBHOOK_ALLOW_PRIVATE=true. */
let allowing: App;
beforeAll(async () => {
  t = await startTestApp({ env: PRODUCTION });
  allowing = await buildApp({
    database: t.database,
    config: testConfig({ ...PRODUCTION, WEBHOOK_ALLOW_PRIVATE: 'true' }),
    clock: t.clock,
    logger: false,
  });
});
afterAll(async () => {
  await allowing.close();
  await t.close();
});

describe('SSRF guard in production', () => {
  it('runs in production mode', () => {
    expect(t.config.production).toBe(true);
    expect(t.config.webhookAllowPrivate).toBe(false);
  });

  it.each([
    'http://127.0.0.1:9/hook',
    'http://localhost:9/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.5/hook',
    'https://172.20.1.1/hook',
    'http://192.168.0.1/hook',
    'http://0.0.0.0:9000/hook',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    'http://100.64.0.1/hook', // carrier-grade NAT (100.64.0.0/10): Alibaba Cloud's metadata is 100.100.100.200
    'http://100.100.100.200/latest/meta-data',
    'http://198.18.0.1/hook', // benchmarking (198.18.0.0/15)
    'http://224.0.0.1/hook', // multicast
    'http://255.255.255.255/hook', // broadcast
    'http://192.0.0.1/hook', // IETF protocol assignments
    'http://[64:ff9b::7f00:1]/hook', // NAT64 form of 127.0.0.1
    'http://[2002:7f00:1::]/hook', // 6to4 form of 127.0.0.1
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', // Teredo
    'http://[ff02::1]/hook', // IPv6 multicast
    'http://[::ffff:169.254.169.254]/hook',
  ])('refuses %s', async (url) => {
    const res = await t.admin('POST', '/admin/webhooks', { url, events: ['*'] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'invalid_data',
      message: expect.stringMatching(/Field 'url' is not allowed: .*private or local address/),
    });
  });

  it('accepts a public address and refuses an update to a private one', async () => {
    const res = await t.admin('POST', '/admin/webhooks', { url: 'https://8.8.8.8/hook', events: ['order.*'] });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().webhook.id;
    const update = await t.admin('PATCH', `/admin/webhooks/${id}`, { url: 'http://127.0.0.1/hook' });
    expect(update.statusCode).toBe(400);
    expect((await t.admin('GET', `/admin/webhooks/${id}`)).json().webhook.url).toBe('https://8.8.8.8/hook');
  });

  it('allows private targets with WEBHOOK_ALLOW_PRIVATE=true', async () => {
    const res = await allowing.inject({
      method: 'POST',
      url: '/admin/webhooks',
      headers: { authorization: `Bearer ${t.adminToken}` },
      payload: { url: 'http://127.0.0.1:9/hook', events: ['*'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().webhook.url).toBe('http://127.0.0.1:9/hook');
  });
});
