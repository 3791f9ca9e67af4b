import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('import-export'), launchBrowser()]);
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const CSV = [
  'Product Handle,Product Title,Product Status,Variant Sku,Variant Price EUR,Variant Option 1 Name,Variant Option 1 Value',
  'linen-shirt,Linen shirt,published,LS-S,49,Size,S',
  'linen-shirt,Linen shirt,published,LS-M,49,Size,M',
  'wool-scarf,Wool scarf,published,WS-1,29.5,Colour,Grey',
  'broken-mug,Broken mug,published,BM-1,not-a-price,Size,One',
].join('\n');

describe('Import / Export', () => {
  it('Products: upload, preview with the row report, confirm, progress to the end; the error report downloads', async () => {
    // The top bar names the role.
    await page.locator('.topbar .who').getByText('Owner').waitFor();
    await page.goto(`${shop.url}/app/products`);
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import products' });
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'catalog.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await dialog.getByRole('button', { name: 'Upload and preview' }).click();
    await dialog.getByText('to create').waitFor();
    expect(await dialog.locator('.import-counts').textContent()).toMatch(
      /2\s*to create.*0\s*to update.*1\s*of 4 rows left out/,
    );
    await dialog.getByRole('cell', { name: '"not-a-price" is not an amount of 0 or more' }).waitFor();
    await screenshot(page, '70-import-preview', { docs: 'admin-import-preview' });

    // The report is a CSV the browser downloads with the panel's cookies.
    const href = await dialog.getByRole('link', { name: /Download error report/ }).getAttribute('href');
    const report = await page.request.get(`${shop.url}${href}`);
    expect(report.status()).toBe(200);
    expect(await report.text()).toContain('5,Variant Price EUR');

    await dialog.getByRole('button', { name: 'Confirm import' }).click();
    await dialog.getByText('succeeded').waitFor({ timeout: 60_000 });
    expect(await dialog.locator('progress').getAttribute('value')).toBe('100');
    await screenshot(page, '71-import-done');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: 'Linen shirt' }).waitFor();
    await page.getByRole('link', { name: 'Wool scarf' }).waitFor();
    expect(await page.getByRole('link', { name: 'Broken mug' }).count()).toBe(0);

    // Export what the list shows: a job, then its CSV.
    await page.getByRole('button', { name: 'Export' }).click();
    const exp = page.getByRole('dialog', { name: 'Export products' });
    const link = exp.getByRole('link', { name: 'Download CSV' });
    await link.waitFor({ timeout: 60_000 });
    const csv = await page.request.get(`${shop.url}${await link.getAttribute('href')}`);
    expect(await csv.text()).toContain('linen-shirt');
    await exp.getByRole('button', { name: 'Close' }).click();
  });

  it('Orders and Customers export; Settings → Jobs lists every job with its progress and files', async () => {
    await shop.admin('POST', '/admin/customers', { email: 'ada@example.com', first_name: 'Ada' });
    for (const area of ['orders', 'customers'] as const) {
      await page.goto(`${shop.url}/app/${area}`);
      await page.getByRole('button', { name: 'Export' }).click();
      const dialog = page.getByRole('dialog', { name: `Export ${area}` });
      await dialog.getByRole('link', { name: 'Download CSV' }).waitFor({ timeout: 60_000 });
      await dialog.getByRole('button', { name: 'Close' }).click();
    }
    await page.goto(`${shop.url}/app/settings/jobs`);
    const jobs = page.getByRole('region', { name: 'Jobs' });
    for (const type of ['Product import', 'Product export', 'Order export', 'Customer export'])
      await jobs
        .getByRole('cell', { name: new RegExp(type) })
        .first()
        .waitFor();
    expect(await jobs.getByRole('link', { name: 'Download error report' }).count()).toBe(1);
    await screenshot(page, '72-jobs', { docs: 'admin-jobs' });
    expect(errors).toEqual([]);
  });
});
