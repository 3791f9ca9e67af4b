import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { VIEWER, launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
let regionId: string;
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('regions'), launchBrowser()]);
  // A payment provider as a plugin would register it (the plugin host's registry, in process).
  shop.app.providers.payment.add({
    id: 'pp_testpay',
    owner: 'testpay-plugin',
    name: 'Test Pay',
    methods: [],
    channels: [],
    call: async () => ({}),
  });
  regionId = (
    await shop.admin<{ region: { id: string } }>('POST', '/admin/regions', {
      name: 'Switzerland',
      currency_code: 'chf',
      countries: ['ch'],
    })
  ).region.id;
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

type Providers = { payment_providers: { id: string }[] };

describe('Settings → Regions: a region’s payment providers', () => {
  it('shows and edits them, with the API’s error beside its field', async () => {
    await page.goto(`${shop.url}/app/settings/regions`);
    await page.getByRole('link', { name: 'Switzerland' }).click();
    const manual = page.getByRole('checkbox', { name: /Manual payment/ });
    const testPay = page.getByRole('checkbox', { name: /Test Pay/ });
    await testPay.waitFor();
    expect([await manual.isChecked(), await testPay.isChecked()]).toEqual([false, false]);

    await page.getByLabel('Currency').fill('zzz');
    await testPay.check();
    await page.getByRole('button', { name: 'Save region' }).click();
    await page.locator('.field-error', { hasText: 'currency_code' }).waitFor();
    expect(await page.getByLabel('Currency').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Currency').fill('chf');
    await page.getByRole('button', { name: 'Save region' }).click();
    await page.getByText('Region saved').waitFor();
    const stored = await shop.admin<{ region: { payment_providers: { id: string; is_enabled: boolean }[] } }>(
      'GET',
      `/admin/regions/${regionId}`,
    );
    expect(stored.region.payment_providers).toEqual([{ id: 'pp_testpay', is_enabled: true }]);
    const offered = await shop.store<Providers>('GET', `/store/payment-providers?region_id=${regionId}`);
    expect(offered.payment_providers.map((p) => p.id)).toEqual(['pp_testpay']);
    await screenshot(page, '45-settings-region', { quiet: true, docs: 'admin-region' });

    // The plugin stops: the region still names its provider, and the form says it is not running.
    shop.app.providers.payment.removeOwner('testpay-plugin');
    await page.reload();
    await page.getByRole('checkbox', { name: /pp_testpay.*not running/ }).waitFor();
    expect(errors).toEqual([]);
  });

  it('is read-only for a viewer', async () => {
    const viewer = await newPage(browser);
    await login(viewer.page, shop, VIEWER, `/app/settings/regions/${regionId}`);
    const p = viewer.page;
    await p.getByRole('checkbox', { name: /Manual payment/ }).waitFor();
    expect(await p.getByRole('checkbox', { name: /Manual payment/ }).isDisabled()).toBe(true);
    expect(await p.getByLabel('Name').isDisabled()).toBe(true);
    expect(await p.getByRole('button', { name: 'Save region' }).count()).toBe(0);
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });
});
