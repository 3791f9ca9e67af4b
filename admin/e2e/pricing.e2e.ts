import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { VIEWER, launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
let variantId: string;
let customerId: string;
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('pricing'), launchBrowser()]);
  const { product } = await shop.admin<{ product: { variants: { id: string }[] } }>('POST', '/admin/products', {
    title: 'Trail shoe',
    status: 'published',
    variants: [{ title: 'EU 42', prices: [{ currency_code: 'eur', amount: 10000 }] }],
  });
  variantId = product.variants[0].id;
  ({
    customer: { id: customerId },
  } = await shop.admin<{ customer: { id: string } }>('POST', '/admin/customers', {
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'Lovelace',
  }));
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

type Group = { id: string; name: string };
type Prices = { prices: { variant_id: string; amount: number; min_quantity: number | null }[] };

describe('Customers → Groups and Price lists', () => {
  let group: Group;

  it('creates a group and adds and removes a member', async () => {
    await page.goto(`${shop.url}/app/customers`);
    await page.getByRole('navigation', { name: 'Customer sections' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('link', { name: 'Add group' }).click();
    await page.getByLabel('Name').fill('VIP');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByText('Group created').waitFor();
    await page.getByLabel('Add a customer').fill('ada');
    await page.getByRole('button', { name: 'Add Ada Lovelace' }).click();
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    const { customer_groups } = await shop.admin<{ customer_groups: Group[] }>(
      'GET',
      `/admin/customer-groups?customers=${customerId}`,
    );
    expect(customer_groups.map((g) => g.name)).toEqual(['VIP']);
    group = customer_groups[0];
    await screenshot(page, '50-customer-group', { quiet: true });

    await page.getByRole('button', { name: 'Remove Ada Lovelace' }).click();
    await page.getByText('Nobody is in this group yet.').waitFor();
    await page.getByRole('button', { name: 'Add Ada Lovelace' }).click();
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  });

  it('creates a price list for the group and prices a variant with a tier', async () => {
    await page.goto(`${shop.url}/app/price-lists`);
    await page.getByRole('link', { name: 'Create price list' }).click();
    await page.getByLabel('Title').fill('VIP bulk');
    await page.getByLabel('Description').fill('members, from 3 pairs');
    await page.getByLabel('Type').selectOption('override');
    await page.getByLabel('Status').selectOption('active');
    await page.getByLabel('VIP').check();
    await page.getByRole('button', { name: 'Create price list' }).click();
    await page.getByText('Price list created').waitFor();

    await page.getByLabel('Add a variant').fill('Trail');
    await page.getByRole('button', { name: 'Add Trail shoe · EU 42' }).click();
    await page.getByLabel('Price', { exact: true }).fill('90');
    await page.getByRole('button', { name: 'Add tier' }).click();
    await page.getByLabel('Price', { exact: true }).nth(1).fill('70,00');
    await page.getByLabel('From quantity').nth(1).fill('3');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page.getByText('Prices saved').waitFor();
    await page.getByRole('heading', { name: 'Prices (2)' }).waitFor();

    const { price_lists } = await shop.admin<{
      price_lists: { id: string; type: string; status: string; rules: Record<string, string[]> }[];
    }>('GET', '/admin/price-lists');
    expect(price_lists).toHaveLength(1);
    expect(price_lists[0]).toMatchObject({
      type: 'override',
      status: 'active',
      rules: { 'customer.groups.id': [group.id] },
    });
    const { prices } = await shop.admin<Prices>('GET', `/admin/price-lists/${price_lists[0].id}/prices`);
    expect(prices.map((p) => [p.variant_id, p.amount, p.min_quantity]).sort()).toEqual([
      [variantId, 7000, 3],
      [variantId, 9000, null],
    ]);
    await screenshot(page, '51-price-list', { quiet: true, docs: 'admin-price-list' });

    // An empty amount is refused beside the grid, and nothing is sent.
    await page.getByRole('button', { name: 'Add tier' }).click();
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page.getByText('Every price needs an amount').waitFor();
    expect(errors).toEqual([]);
  });

  it('is read-only for a viewer', async () => {
    const viewer = await newPage(browser);
    await login(viewer.page, shop, VIEWER, '/app/price-lists');
    await viewer.page.getByRole('link', { name: 'VIP bulk' }).click();
    await viewer.page.getByRole('heading', { name: 'Prices (2)' }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Save prices' }).count()).toBe(0);
    expect(await viewer.page.getByLabel('Title').isDisabled()).toBe(true);
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });
});
