import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

/** The order page shows each discount and tax line of an order placed with a promotion in a taxed region. */
let shop: Shop;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('order-pricing'), launchBrowser()]);
  ({ page } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe('Orders → discounts and taxes', () => {
  it('lists the discount and the VAT of each line, and the totals', async () => {
    const { region } = await shop.admin<{ region: { id: string } }>('POST', '/admin/regions', {
      name: 'Portugal',
      currency_code: 'eur',
      countries: ['pt'],
    });
    await shop.admin('POST', '/admin/tax-regions', {
      country_code: 'pt',
      default_tax_rate: { rate: 23, code: 'IVA', name: 'IVA' },
    });
    await shop.admin('POST', '/admin/promotions', {
      code: 'OLA10',
      type: 'standard',
      status: 'active',
      is_automatic: true,
      application_method: { type: 'percentage', value: 10, target_type: 'items', allocation: 'each', max_quantity: 5 },
    });
    const { sales_channels } = await shop.admin<{ sales_channels: { id: string }[] }>('GET', '/admin/sales-channels');
    const { product } = await shop.admin<{ product: { variants: { id: string }[] } }>('POST', '/admin/products', {
      title: 'Cork board',
      status: 'published',
      sales_channels: sales_channels.map(({ id }) => ({ id })),
      variants: [{ title: 'A3', prices: [{ currency_code: 'eur', amount: 5000 }], manage_inventory: false }],
    });
    const { cart } = await shop.store<{ cart: { id: string } }>('POST', '/store/carts', {
      region_id: region.id,
      email: 'ines@example.com',
      items: [{ variant_id: product.variants[0].id, quantity: 2 }],
    });
    const { order } = await shop.store<{ order: { id: string } }>('POST', `/store/carts/${cart.id}/complete`);

    await page.goto(`${shop.url}/app/orders/${order.id}`);
    await page.getByText('Discount OLA10: −€10.00').waitFor();
    await page.getByText('IVA 23 %: €20.70').waitFor();
    await page.getByText('Subtotal (without tax)').waitFor();
    await screenshot(page, '60-order-discount-tax', { quiet: true });
  });
});
