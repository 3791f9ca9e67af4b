import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { VIEWER, launchBrowser, login, newPage, screenshot as shoot, startShop, type Shop } from './harness.ts';

/**
 * The toasts hidden while the picture is taken (through the element's style: the panel's CSP refuses
 * an injected stylesheet), so it shows the page, not what just happened.
 */
async function screenshot(p: Page, name: string, opts: { quiet?: boolean; docs?: string }): Promise<void> {
  const toasts = (show: boolean) =>
    p.evaluate((on) => {
      const el = document.querySelector<HTMLElement>('.toasts');
      if (el) el.style.display = on ? '' : 'none';
    }, show);
  await toasts(false);
  await shoot(p, name, opts);
  await toasts(true);
}

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
let typeId: string;
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('promotions-taxes'), launchBrowser()]);
  // An automatic promotion made over the API, so the list shows both kinds.
  await shop.admin('POST', '/admin/promotions', {
    code: 'FREESHIP',
    type: 'standard',
    is_automatic: true,
    status: 'active',
    application_method: {
      type: 'fixed',
      value: 490,
      currency_code: 'eur',
      target_type: 'shipping_methods',
      allocation: 'across',
    },
  });
  ({
    product_type: { id: typeId },
  } = await shop.admin<{ product_type: { id: string } }>('POST', '/admin/product-types', { value: 'Books' }));
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

type Promotion = {
  id: string;
  code: string;
  status: string;
  is_automatic: boolean;
  campaign_id: string | null;
  application_method: { type: string; value: number; target_type: string; allocation: string | null };
};
type Campaign = { id: string; name: string; budget: { type: string; limit: number | null; used: number } | null };
type TaxRegion = {
  id: string;
  country_code: string;
  province_code: string | null;
  parent_id: string | null;
  tax_rates: {
    name: string;
    rate: number;
    is_default: boolean;
    rules: { reference: string; reference_id: string }[];
  }[];
};

describe('Promotions', () => {
  it('creates a 10 % code with a campaign budget and lists it', async () => {
    await page.goto(`${shop.url}/app/`);
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Promotions' }).click();
    await page.getByRole('link', { name: 'Create promotion' }).click();
    await page.getByLabel('Code').fill('SAVE10');
    await page.getByLabel('Status').selectOption('active');
    await page.getByLabel('Percentage').fill('10');
    await page.getByLabel('Applies to').selectOption('items');
    await page.getByLabel('Allocation').selectOption('across');
    await page.getByLabel('Campaign', { exact: true }).selectOption('new');
    await page.getByLabel('Campaign name').fill('Summer sale');
    await page.getByLabel('Budget', { exact: true }).selectOption('usage');
    await page.getByLabel('Budget limit').fill('100');
    await page.getByRole('button', { name: 'Create promotion' }).click();
    await page.getByText('Promotion created').waitFor();
    await page.getByRole('cell', { name: 'SAVE10' }).waitFor();
    await page.getByRole('cell', { name: '10 % off items, spread across' }).waitFor();
    await page.getByRole('cell', { name: '0 of 100 uses' }).waitFor();

    const { promotions } = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions?code=SAVE10');
    expect(promotions).toHaveLength(1);
    expect(promotions[0]).toMatchObject({
      code: 'SAVE10',
      status: 'active',
      is_automatic: false,
      application_method: { type: 'percentage', value: 10, target_type: 'items', allocation: 'across' },
    });
    const { campaigns } = await shop.admin<{ campaigns: Campaign[] }>('GET', '/admin/campaigns');
    expect(campaigns).toMatchObject([{ id: promotions[0].campaign_id, name: 'Summer sale' }]);
    expect(campaigns[0].budget).toMatchObject({ type: 'usage', limit: 100, used: 0 });
    await screenshot(page, '60-promotions', { quiet: true, docs: 'admin-promotions' });
  });

  it('changes a status and deletes a promotion', async () => {
    await page.getByLabel('Status of FREESHIP').selectOption('inactive');
    await page.getByText('FREESHIP saved').waitFor();
    const { promotions } = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions?code=FREESHIP');
    expect(promotions[0].status).toBe('inactive');

    await page
      .getByRole('row', { name: /FREESHIP/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('dialog', { name: 'Delete FREESHIP?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('FREESHIP deleted').waitFor();
    const after = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions');
    expect(after.promotions.map((p) => p.code)).toEqual(['SAVE10']);
  });

  it('refuses a percentage over 100 beside the form, and nothing is made', async () => {
    await page.getByRole('link', { name: 'Create promotion' }).click();
    await page.getByLabel('Code').fill('TOOMUCH');
    await page.getByLabel('Percentage').fill('150');
    await page.getByRole('button', { name: 'Create promotion' }).click();
    await page.getByText('percentage number between 0 and 100').waitFor();
    const { promotions } = await shop.admin<{ promotions: Promotion[] }>('GET', '/admin/promotions');
    expect(promotions.map((p) => p.code)).toEqual(['SAVE10']);
  });
});

describe('Settings → Taxes', () => {
  it('creates DE at 19 %, a province and an override for a product type', async () => {
    await page.goto(`${shop.url}/app/settings`);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Taxes' }).click();
    const form = page.getByRole('form', { name: 'New tax region' });
    await form.getByLabel('Country').fill('de');
    await form.getByLabel('Default rate').fill('19');
    await form.getByLabel('Rate name').fill('VAT');
    await form.getByLabel('Rate code').fill('DE19');
    await form.getByRole('button', { name: 'Create tax region' }).click();
    await page.getByText('Tax region created').waitFor();
    await page.getByRole('link', { name: 'DE', exact: true }).waitFor();
    await page.getByRole('cell', { name: '19 %' }).waitFor();

    await form.getByLabel('Country').fill('de');
    await form.getByLabel('Province').fill('by');
    await form.getByRole('button', { name: 'Create tax region' }).click();
    await page.getByRole('link', { name: 'DE · BY' }).waitFor();

    const { tax_regions } = await shop.admin<{ tax_regions: TaxRegion[] }>('GET', '/admin/tax-regions?country_code=de');
    const de = tax_regions.find((r) => !r.province_code);
    const by = tax_regions.find((r) => r.province_code);
    expect(de).toMatchObject({ country_code: 'de', tax_rates: [{ name: 'VAT', rate: 19, is_default: true }] });
    expect(by).toMatchObject({ country_code: 'de', province_code: 'by', parent_id: de?.id });
    await screenshot(page, '61-tax-regions', { quiet: true });

    await page.getByRole('link', { name: 'DE', exact: true }).click();
    const rate = page.getByRole('form', { name: 'New override rate' });
    await rate.getByLabel('Name').fill('Reduced VAT');
    await rate.getByLabel('Code').fill('DE7');
    await rate.getByLabel('Rate', { exact: true }).fill('7');
    await rate.getByLabel('Books').check();
    await rate.getByRole('button', { name: 'Add override rate' }).click();
    await page.getByText('Override rate created').waitFor();
    await page.getByRole('cell', { name: 'type Books' }).waitFor();
    const { tax_regions: after } = await shop.admin<{ tax_regions: TaxRegion[] }>(
      'GET',
      `/admin/tax-regions?country_code=de`,
    );
    const rates = after.find((r) => !r.province_code)?.tax_rates ?? [];
    expect(rates.find((t) => !t.is_default)).toMatchObject({
      name: 'Reduced VAT',
      rate: 7,
      rules: [{ reference: 'product_type', reference_id: typeId }],
    });
    await screenshot(page, '62-tax-region', { quiet: true, docs: 'admin-taxes' });

    // The default rate edited in place.
    await page.getByLabel('Rate of VAT, percent').fill('19.5');
    await page.getByRole('row', { name: /DE19/ }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('VAT saved').waitFor();
    const { tax_regions: edited } = await shop.admin<{ tax_regions: TaxRegion[] }>(
      'GET',
      '/admin/tax-regions?country_code=de',
    );
    expect(edited.find((r) => !r.province_code)?.tax_rates.find((t) => t.is_default)?.rate).toBe(19.5);
    expect(errors).toEqual([]);
  });

  it('is read-only for a viewer', async () => {
    const viewer = await newPage(browser);
    await login(viewer.page, shop, VIEWER, '/app/settings/taxes');
    await viewer.page.getByRole('link', { name: 'DE', exact: true }).click();
    await viewer.page.getByRole('cell', { name: 'type Books' }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Delete tax region' }).count()).toBe(0);
    expect(await viewer.page.getByRole('form', { name: 'New override rate' }).count()).toBe(0);
    await viewer.page.goto(`${shop.url}/app/promotions`);
    await viewer.page.getByRole('cell', { name: 'SAVE10' }).waitFor();
    expect(await viewer.page.getByRole('link', { name: 'Create promotion' }).count()).toBe(0);
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });
});
