import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { packExample, uploadForm } from '../../src/modules/marketplace/marketplace.testing.ts';
import { launchBrowser, newPage, screenshot, startShop, type Shop } from './harness.ts';
import { installMailbox } from './mailbox.ts';

let market: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
let token: string;

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

const text = (s: string) => s.replace(/\s+/g, ' ').trim();

async function call(method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Json> {
  const form = body instanceof FormData;
  const res = await fetch(market.url + path, {
    method,
    headers: { ...headers, ...(body === undefined || form ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  const answer = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${answer}`);
  return answer ? JSON.parse(answer) : null;
}
const asVendor = (method: string, path: string, body?: unknown) =>
  call(method, path, body, { authorization: `Bearer ${token}` });

/** A buyer pays with the built-in test provider, then its shop downloads (an install) and rates. */
async function sell(marketplaceId: string, instance: string, rating: number, review: string) {
  const session = await call('POST', '/store/marketplace/checkout/session', {
    marketplace_id: marketplaceId,
    version: '1.0.0',
    customer_email: `${instance}@shops.example`,
    instance_id: instance,
  });
  const paid = await fetch(`${market.url}/store/marketplace/checkout/test/${session.id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  expect(paid.status).toBe(200);
  const key = (await call('GET', `/store/marketplace/checkout/session/${session.id}`, undefined)).license_key;
  await call(
    'GET',
    `/store/marketplace/download/${marketplaceId}/1.0.0?license_key=${key}&instance_id=${instance}`,
    undefined,
  );
  await call('POST', '/store/marketplace/reviews', {
    marketplace_id: marketplaceId,
    instance_id: instance,
    rating,
    body: review,
  });
}

beforeAll(async () => {
  [market, browser] = await Promise.all([
    startShop('vendor-portal', { SERVICE_ROLE: 'marketplace', MARKETPLACE_RATE_LIMIT: '1000000' }),
    launchBrowser(),
  ]);
  ({ page, errors } = await newPage(browser));
});
afterAll(async () => {
  await browser?.close();
  await market?.close();
});

describe('the vendor area of a marketplace', () => {
  it('signs up, lands from the emailed link with its first token, and opens its own area', async () => {
    const mailbox = installMailbox(market);
    const mail = mailbox.next();
    await call('POST', '/store/marketplace/vendors', {
      name: 'Acme Labs',
      email: 'dev@acme.example',
      namespace: '@acme',
    });
    const link = new URL(String((await mail).data.verify_url));
    expect(link.pathname).toBe('/app/vendor/verify');
    await page.goto(market.url + link.pathname + link.search);
    await page.getByRole('heading', { name: 'Welcome, Acme Labs' }).waitFor();
    token = await page.getByLabel('Your API token').inputValue();
    expect(token).toMatch(/^mvk_/);
    await page.getByRole('button', { name: 'Open the vendor area' }).click();
    await page.getByRole('heading', { name: 'Vendor area · Acme Labs' }).waitFor();
    await page.getByText('Nothing published yet').waitFor();
  });

  it('shows its items with each version’s review (and why one was rejected), installs, ratings, sales, licences and payouts', async () => {
    const vendorId = (await asVendor('GET', '/admin/marketplace/vendor')).vendor.id;
    await market.admin('POST', `/admin/marketplace/vendors/${vendorId}/payouts`, { commission_percent: 20 });
    const versions: Record<string, string> = {};
    for (const version of ['1.0.0', '1.1.0', '1.2.0']) {
      const bytes = await packExample('loyalty-points', { id: 'loyalty', vendor: 'acme', version });
      const { item } = await asVendor(
        'POST',
        '/admin/marketplace/items',
        uploadForm(bytes, { price_eur: '9.90', billing: 'monthly' }),
      );
      versions[version] = item.versions.find((v: Json) => v.version === version).id;
      versions.item = item.id;
    }
    const review = (v: string, action: string, body: unknown) =>
      market.admin('POST', `/admin/marketplace/items/${versions.item}/versions/${versions[v]}/${action}`, body);
    await review('1.0.0', 'approve', {});
    await review('1.1.0', 'reject', { reason: 'Asks to write orders without saying why in its description' });
    await sell('@acme/loyalty', 'inst_shop_a', 5, 'Does what it says');
    await sell('@acme/loyalty', 'inst_shop_b', 4, 'Good, a few rough edges');

    await page.reload();
    const items = page.getByRole('table', { name: 'Items' });
    await items.waitFor();
    const row = items.locator('tbody tr', { hasText: '@acme/loyalty' });
    await row.getByText('4.5 ★ (2)').waitFor();
    expect(text(await row.innerText())).toContain('€9.90 a month 2 4.5 ★ (2)');
    expect(text(await row.innerText())).toContain('1.2.0 in review 1.1.0 rejected');
    await row.getByText('Reason: Asks to write orders without saying why in its description').waitFor();
    await row.getByText('1.0.0 approved').waitFor();

    const figures = text(await page.getByLabel('Payouts ledger').innerText());
    expect(figures).toContain('Sales €19.80');
    expect(figures).toContain('Commission (20 %) €3.96');
    expect(figures).toContain('Your share €15.84');
    expect(figures).toContain('Owed €15.84');
    expect(await page.getByRole('table', { name: 'Sales' }).locator('tbody tr').count()).toBe(2);
    expect(await page.getByRole('table', { name: 'Licences' }).locator('tbody tr').count()).toBe(2);
    await screenshot(page, 'vendor-portal', { quiet: true, docs: 'marketplace-vendor-area' });
    expect(errors).toEqual([]);
  });

  it('signs out, refuses a wrong token, and signs in again with its own', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Vendor sign-in' }).waitFor();
    await page.getByLabel('API token').fill('mvk_not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This token is unknown, revoked, or lacks the read scope.').waitFor();
    await page.getByLabel('API token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Vendor area · Acme Labs' }).waitFor();
  });
});
