import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packExample } from '../marketplace/marketplace.testing.ts';
import { installAndWait, pluginSlug } from '../plugins/plugins.testing.ts';
import { instanceIdFor } from './instance-id.ts';
import { runLicenseChecks } from './license-check.ts';
import { buyThroughShop, publishPaidPlugin, shopAdmin, startPaidWorld, type PaidWorld } from './paid.testing.ts';

let w: PaidWorld;
beforeAll(async () => {
  w = await startPaidWorld();
});
afterAll(async () => {
  await w.close();
});

/** Shop data that must never reach the marketplace: if any of it shows up in a request, it leaked. */
const SECRETS = [
  'leaky.customer@private.example',
  'Ada',
  'Lovelace-Secretname',
  'Confidential Widget Deluxe',
  'confidential-widget-deluxe',
  'SKU-PRIVATE-991',
  '4321',
];
const OPERATOR_EMAIL = 'operator@shop.example';

/**
 * Whether `secret` appears in `text`. The price (digits) counts only as a number of its own: inside a
 * hex signature or a timestamp ("…43212bc4…", "expires=17954321…") it is a coincidence, not a leak.
 */
const leaks = (text: string, secret: string) =>
  /^\d+$/.test(secret) ? new RegExp(`(?<![0-9a-fA-F])${secret}(?![0-9a-fA-F])`).test(text) : text.includes(secret);

const HEADERS = new Set([
  'host',
  'user-agent',
  'accept',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
  'connection',
  'content-type',
  'content-length',
  'x-publishable-api-key',
]);
const QUERY = new Set([
  'license_key',
  'instance_id',
  'versions',
  'expires',
  'signature',
  'type',
  'search',
  'page',
  'per_page',
  // the transparency log's consistency proof between two tree sizes
  'first',
  'second',
]);
/** Per marketplace path: the body keys the shop may send. */
const ROUTES: [RegExp, string, string[]][] = [
  [/^\/store\/marketplace\/feed$/, 'GET', []],
  [/^\/store\/marketplace\/keys$/, 'GET', []],
  [/^\/store\/marketplace\/log\/(sth|consistency)$/, 'GET', []],
  [
    /^\/store\/marketplace\/crash-reports$/,
    'POST',
    ['marketplace_id', 'version', 'rolled_back_to', 'reason', 'instance_id'],
  ],
  [/^\/store\/marketplace\/updates$/, 'GET', []],
  [/^\/store\/marketplace\/download\/@[a-z0-9-]+\/[a-z0-9-]+\/\d+\.\d+\.\d+$/, 'GET', []],
  [/^\/store\/marketplace\/artifacts\/@[a-z0-9-]+\/[a-z0-9-]+\/\d+\.\d+\.\d+$/, 'GET', []],
  [
    /^\/store\/marketplace\/checkout\/session$/,
    'POST',
    ['marketplace_id', 'version', 'customer_email', 'instance_id', 'callback_url'],
  ],
  [/^\/store\/marketplace\/checkout\/session\/mcs_[0-9A-Z]+$/, 'GET', []],
  [/^\/store\/marketplace\/license\/verify$/, 'POST', ['license_key', 'marketplace_id', 'instance_id']],
];

describe('privacy audit of the federation link', () => {
  it('every request the shop makes carries only marketplace ids, versions, license keys, the instance token and the operator e-mail at checkout', async () => {
    const { t, m } = w;
    // Shop data a leak would expose.
    expect(
      (await t.admin('POST', '/admin/customers', { email: SECRETS[0], first_name: SECRETS[1], last_name: SECRETS[2] }))
        .statusCode,
    ).toBe(200);
    const product = await t.admin('POST', '/admin/products', {
      title: SECRETS[3],
      handle: SECRETS[4],
      status: 'published',
      variants: [
        {
          title: 'One',
          sku: SECRETS[5],
          inventory_quantity: 7,
          prices: [{ currency_code: 'eur', amount: Number(SECRETS[6]) }],
        },
      ],
    });
    expect(product.statusCode, product.body).toBe(200);

    const free = await m.publish(await packExample('hello-widget', { id: pluginSlug('free') }));
    const paid = await publishPaidPlugin(m);
    m.requests.length = 0;

    // Feed, free install, update check.
    expect((await shopAdmin(t, 'GET', '/admin/marketplace/feed')).statusCode).toBe(200);
    expect((await installAndWait(t, free.marketplace_id)).status).toBe('installed');
    await m.publish(await packExample('hello-widget', { id: free.marketplace_id.split('/')[1], version: '1.0.1' }));
    expect((await shopAdmin(t, 'GET', '/admin/plugins/check-updates')).json().updates).toHaveLength(1);
    // Paid checkout, callback-driven install with the license, poll, license check.
    const session = await buyThroughShop(w, paid.marketplaceId);
    await w.sender.drain();
    await t.app.plugins.settled();
    expect((await shopAdmin(t, 'GET', `/admin/marketplace/checkout/${session.id}`)).json().checkout.status).toBe(
      'paid',
    );
    await runLicenseChecks(t.ctx, t.config, t.app.plugins);

    const instanceId = await instanceIdFor(t.ctx, t.config.encryptionKey, m.url);
    const fromShop = m.requests.filter((r) => String(r.headers['user-agent']).startsWith('emporium/'));
    const paths = fromShop.map((r) => `${r.method} ${new URL(r.url, m.url).pathname}`);
    for (const phase of ['feed', 'keys', 'download', 'artifacts', 'updates', 'checkout/session', 'license/verify']) {
      expect(
        paths.some((p) => p.includes(`/store/marketplace/${phase}`)),
        `no ${phase} request recorded`,
      ).toBe(true);
    }
    for (const r of fromShop) {
      const url = new URL(r.url, m.url);
      const where = `${r.method} ${r.url}`;
      const route = ROUTES.find(([re, method]) => re.test(url.pathname) && method === r.method);
      expect(route, `unexpected request ${where}`).toBeDefined();
      for (const h of Object.keys(r.headers)) expect(HEADERS.has(h), `header ${h} on ${where}`).toBe(true);
      if (r.headers['x-publishable-api-key'] !== undefined)
        expect(r.headers['x-publishable-api-key']).toBe('pk_test_tenant');
      for (const [k, v] of url.searchParams) {
        expect(QUERY.has(k), `query ${k} on ${where}`).toBe(true);
        if (k === 'instance_id') expect(v).toBe(instanceId);
        if (k === 'versions')
          for (const [mid, ver] of Object.entries(JSON.parse(v)))
            expect([mid, ver]).toEqual([
              expect.stringMatching(/^@[a-z0-9-]+\/[a-z0-9-]+$/),
              expect.stringMatching(/^\d+\.\d+\.\d+$/),
            ]);
      }
      const body = (r.body ?? {}) as Record<string, unknown>;
      for (const k of Object.keys(body)) expect(route![2].includes(k), `body key ${k} on ${where}`).toBe(true);
      if ('instance_id' in body) expect(body.instance_id).toBe(instanceId);
      if ('customer_email' in body) expect(body.customer_email).toBe(OPERATOR_EMAIL);
      if ('callback_url' in body) expect(body.callback_url).toBe(t.config.publicUrl);
      const everything = JSON.stringify([r.url, r.headers, r.body]);
      for (const s of SECRETS) expect(leaks(everything, s), `"${s}" leaked in ${where}`).toBe(false);
      expect(everything.includes(t.publishableKey)).toBe(false);
    }
  });
});
