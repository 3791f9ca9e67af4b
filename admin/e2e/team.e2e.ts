import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('team'), launchBrowser()]);
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** An order whose payment is captured, so it has money to refund. */
async function capturedOrder(): Promise<string> {
  await shop.admin('POST', '/admin/regions', { name: 'Europe', currency_code: 'eur', countries: ['de'] });
  const channel = (await shop.admin<{ sales_channels: { id: string }[] }>('GET', '/admin/sales-channels'))
    .sales_channels[0];
  const { product } = await shop.admin<{ product: { variants: { id: string }[] } }>('POST', '/admin/products', {
    title: 'Linen apron',
    status: 'published',
    sales_channels: [{ id: channel.id }],
    variants: [{ title: 'One size', prices: [{ currency_code: 'eur', amount: 2400 }], inventory_quantity: 5 }],
  });
  const { cart } = await shop.store<{ cart: { id: string } }>('POST', '/store/carts', {
    email: 'ada@example.com',
    items: [{ variant_id: product.variants[0].id, quantity: 1 }],
  });
  const { order } = await shop.store<{ order: { id: string } }>('POST', `/store/carts/${cart.id}/complete`);
  await shop.admin('POST', `/admin/orders/${order.id}/capture`, {});
  return order.id;
}

describe('Settings → Team', () => {
  it('a custom role made in the grid, an invite accepted from its link, and that role sees no refund button', async () => {
    await page.goto(`${shop.url}/app/settings/team`);
    // A custom role: orders read and write, no refund.
    await page.getByRole('button', { name: 'New role' }).click();
    const form = page.getByRole('form', { name: 'New role' });
    await form.getByLabel('Name', { exact: true }).fill('Packer');
    await form.getByLabel('orders:read').check();
    await form.getByLabel('orders:write').check();
    await form.getByLabel('products:read').check();
    await screenshot(page, '60-team-role-grid');
    await form.getByRole('button', { name: 'Save role' }).click();
    await page.getByRole('cell', { name: /^Packer/ }).waitFor();

    // No email provider: the inviter gets the link to pass on.
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('Email').fill('packer@example.com');
    await invite.getByLabel('Role').selectOption({ label: 'Packer' });
    await invite.getByRole('button', { name: 'Send invite' }).click();
    const link = await page.getByTestId('invite-link').textContent();
    expect(link).toContain('/app/invite?token=');
    await page.getByRole('cell', { name: 'packer@example.com' }).waitFor();
    await screenshot(page, '61-team-invites', { docs: 'admin-team' });

    // The invited person, in a browser of their own.
    const guest = await newPage(browser);
    const url = new URL(String(link));
    await guest.page.goto(`${shop.url}${url.pathname}${url.search}`);
    await guest.page.getByRole('heading', { name: 'Join the team' }).waitFor();
    await guest.page.getByLabel('First name').fill('Pat');
    await guest.page.getByLabel('Password', { exact: true }).fill('packer-password-1');
    await guest.page.getByLabel('Repeat the password').fill('packer-password-1');
    await guest.page.getByRole('button', { name: 'Create my account' }).click();
    await guest.page.getByText('Your account packer@example.com is ready').waitFor();
    await screenshot(guest.page, '62-invite-accepted');

    const orderId = await capturedOrder();
    // The admin sees the refund; the packer does not, but may still ship.
    await page.goto(`${shop.url}/app/orders/${orderId}`);
    await page.getByRole('heading', { name: 'Refund', exact: true }).waitFor();
    await guest.page.getByRole('link', { name: 'Sign in' }).click();
    await login(
      guest.page,
      shop,
      { email: 'packer@example.com', password: 'packer-password-1' },
      `/app/orders/${orderId}`,
    );
    await guest.page.getByRole('heading', { name: 'Fulfil items' }).waitFor();
    expect(await guest.page.getByRole('heading', { name: 'Refund', exact: true }).count()).toBe(0);
    expect(await guest.page.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);
    await screenshot(guest.page, '63-order-without-refund');

    // Back in the team list, the admin sees the new user with their role.
    await page.goto(`${shop.url}/app/settings/team`);
    await page.getByRole('cell', { name: 'packer@example.com' }).first().waitFor();
    expect(errors).toEqual([]);
    expect(guest.errors).toEqual([]);
    await guest.context.close();
  });
});
