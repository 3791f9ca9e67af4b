import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('commerce'), launchBrowser()]);
  await shop.admin('POST', '/admin/regions', { name: 'Europe', currency_code: 'eur', countries: ['de', 'fr'] });
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name, exact: true }).click();

describe('products', () => {
  it('creates a product with two variants in the panel, and the store API sells it', async () => {
    await nav('Products');
    await page.getByRole('link', { name: 'Add product' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Linen shirt');
    await page.getByLabel('Description').fill('Breathable linen, cut for summer.');
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.getByLabel('Option name').fill('Size');
    await page.getByLabel('Values (comma-separated)').fill('S, M');
    await page.getByRole('button', { name: 'Add variant' }).click();
    const variants = page.locator('fieldset fieldset');
    for (const [i, size, price, stock] of [
      [0, 'S', '49.00', '10'],
      [1, 'M', '52.50', '4'],
    ] as const) {
      const v = variants.nth(i);
      await v.getByLabel('Variant title').fill(size);
      await v.getByLabel('Size', { exact: true }).selectOption(size);
      await v.getByLabel('Stock', { exact: true }).fill(stock);
      await v.getByLabel('Price (EUR)').fill(price);
    }
    await screenshot(page, '10-product-new');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByText('Product created').waitFor();
    await page.getByRole('heading', { name: 'Linen shirt' }).waitFor();
    // The product's own audit entries: its create, filed under the new id.
    await page.getByRole('region', { name: 'Activity' }).getByText('POST /products').waitFor();

    const store = await shop.store<{
      products: {
        title: string;
        variants: { title: string; inventory_quantity: number; prices: { amount: number; currency_code: string }[] }[];
      }[];
    }>('GET', '/store/products?q=linen');
    expect(store.products).toHaveLength(1);
    const sold = store.products[0].variants
      .map((v) => [v.title, v.inventory_quantity, v.prices.map((p) => `${p.amount} ${p.currency_code}`)])
      .sort();
    expect(sold).toEqual([
      ['M', 4, ['5250 eur']],
      ['S', 10, ['4900 eur']],
    ]);

    await nav('Products');
    await page.getByRole('link', { name: 'Linen shirt' }).waitFor();
    await screenshot(page, '11-products');
  });

  it('shows an API error next to the field it names', async () => {
    await page.getByRole('link', { name: 'Add product' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Another shirt');
    await page.getByLabel('Handle', { exact: true }).fill('linen-shirt');
    await page.getByRole('button', { name: 'Create product' }).click();
    const handle = page.getByLabel('Handle', { exact: true });
    await page.getByText('Product with handle: linen-shirt, already exists.').waitFor();
    expect(await handle.getAttribute('aria-invalid')).toBe('true');
    const described = await handle.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain('already exists');
  });

  it('deletes with undo: undo keeps it, otherwise it is gone after the window', async () => {
    await nav('Products');
    await page.getByRole('button', { name: 'Delete Linen shirt' }).click();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('link', { name: 'Linen shirt' }).waitFor();
    await page.waitForTimeout(6500);
    const still = await shop.admin<{ products: unknown[] }>('GET', '/admin/products?q=linen');
    expect(still.products).toHaveLength(1);
  });
});

describe('orders', () => {
  it('an order placed through the store API is captured, fulfilled and partly refunded in the panel', async () => {
    const product = (
      await shop.admin<{ products: { variants: { id: string; title: string }[] }[] }>('GET', '/admin/products?q=linen')
    ).products[0];
    const variant = product.variants.find((v) => v.title === 'S')!;
    const cart = (
      await shop.store<{ cart: { id: string } }>('POST', '/store/carts', {
        email: 'ada@example.com',
        items: [{ variant_id: variant.id, quantity: 2 }],
      })
    ).cart;
    const { order } = await shop.store<{ order: { id: string; display_id: number } }>(
      'POST',
      `/store/carts/${cart.id}/complete`,
    );

    await nav('Orders');
    await page.getByRole('link', { name: `#${order.display_id}` }).click();
    await page.getByRole('heading', { name: new RegExp(`Order #${order.display_id}`) }).waitFor();
    await page.getByRole('button', { name: /^Capture/ }).click();
    await page.getByText('Payment captured').first().waitFor();
    await page.getByRole('button', { name: 'Fulfil selected items' }).click();
    await page.getByText('Items fulfilled').waitFor();
    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    await page.getByText('Marked as shipped').waitFor();
    const refund = page.getByRole('form', { name: 'Refund' });
    await refund.getByLabel(/^Amount/).fill('10.00');
    await refund.getByLabel('Reason').fill('Late delivery');
    await refund.getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Refund recorded').waitFor();
    const activity = page.getByRole('region', { name: 'Activity' });
    await activity.getByText(/^POST \/orders\/:id\/refunds/).waitFor();
    await activity.getByText(/^POST \/orders\/:id\/capture/).waitFor();
    await screenshot(page, '12-order-detail', { quiet: true });

    const after = (
      await shop.admin<{
        order: {
          payment_status: string;
          fulfillment_status: string;
          summary: { refunded_total: number; captured_total: number };
        };
      }>('GET', `/admin/orders/${order.id}`)
    ).order;
    expect(after).toMatchObject({
      payment_status: 'partially_refunded',
      fulfillment_status: 'shipped',
      summary: { captured_total: 9800, refunded_total: 1000 },
    });

    await nav('Orders');
    // The list's Payment filter (a combobox): right after the click the order page, whose Payment
    // card carries the same label, can still be on screen.
    await page.getByRole('combobox', { name: 'Payment' }).selectOption('partially_refunded');
    await page
      .getByRole('row')
      .filter({ hasText: `#${order.display_id}` })
      .getByText('partially refunded')
      .waitFor();
    await screenshot(page, '13-orders');
  });

  it("Home shows today's orders and revenue, and the customer pages list the order", async () => {
    // Some sales on earlier days, for the 30-day chart.
    const variant = (
      await shop.admin<{ products: { variants: { id: string; title: string }[] }[] }>('GET', '/admin/products?q=linen')
    ).products[0].variants.find((v) => v.title === 'S')!;
    for (const [daysAgo, quantity] of [
      [3, 1],
      [6, 2],
      [11, 1],
      [17, 1],
      [24, 2],
    ]) {
      shop.clock.offsetMs = -daysAgo * 86_400_000;
      const { cart } = await shop.store<{ cart: { id: string } }>('POST', '/store/carts', {
        email: `buyer${daysAgo}@example.com`,
        items: [{ variant_id: variant.id, quantity }],
      });
      await shop.store('POST', `/store/carts/${cart.id}/complete`);
    }
    shop.clock.offsetMs = 0;
    await nav('Home');
    await page.getByRole('heading', { name: 'Orders today' }).waitFor();
    await page.getByText('€98.00').first().waitFor();
    await page.getByText('€441.00 in 30 days · 6 orders').waitFor();
    await screenshot(page, '14-home', { quiet: true });
    await shop.admin('POST', '/admin/customers', {
      email: 'grace@example.com',
      first_name: 'Grace',
      last_name: 'Hopper',
    });
    await nav('Customers');
    await page.getByRole('searchbox', { name: 'Search' }).fill('grace');
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByLabel('Phone').fill('+49 30 1234567');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Customer saved').waitFor();
    await screenshot(page, '15-customer');
    expect(errors).toEqual([]);
  });
});
