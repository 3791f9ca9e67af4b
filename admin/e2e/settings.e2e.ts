import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let receiver: Server;
let receiverUrl = '';
/** What the receiver answers: a failure until the test lets it succeed. */
let answer = { status: 500, body: 'receiver down for maintenance' };
let received = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  [shop, browser] = await Promise.all([startShop('settings'), launchBrowser()]);
  await shop.admin('POST', '/admin/regions', { name: 'Europe', currency_code: 'eur', countries: ['de'] });
  ({ page } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name, exact: true }).click();

async function placeOrder(): Promise<void> {
  const channel = (await shop.admin<{ sales_channels: { id: string }[] }>('GET', '/admin/sales-channels'))
    .sales_channels[0];
  const { product } = await shop.admin<{ product: { variants: { id: string }[] } }>('POST', '/admin/products', {
    title: `Mug ${Date.now()}`,
    status: 'published',
    sales_channels: [{ id: channel.id }],
    variants: [{ title: 'One size', prices: [{ currency_code: 'eur', amount: 1200 }], inventory_quantity: 5 }],
  });
  const { cart } = await shop.store<{ cart: { id: string } }>('POST', '/store/carts', {
    email: 'ada@example.com',
    items: [{ variant_id: product.variants[0].id, quantity: 1 }],
  });
  await shop.store('POST', `/store/carts/${cart.id}/complete`);
}

describe('webhooks in the settings area', () => {
  it('a webhook whose receiver fails shows its attempts, is retried, and its dead deliveries are replayed', async () => {
    await nav('Settings');
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Signing secret (shown once').waitFor();
    await screenshot(page, '30-webhooks');

    await placeOrder();
    await page.getByRole('link', { name: 'Deliveries' }).click();
    const row = page.getByRole('row').filter({ hasText: 'order.placed' });
    await row.getByText('retrying').waitFor({ timeout: 20_000 });
    await row.getByRole('button', { name: 'order.placed' }).click();
    await page.getByText('receiver down for maintenance').waitFor();
    await screenshot(page, '31-webhook-deliveries');

    // Let retries run out while the receiver stays down: the delivery goes dead.
    // (the schedule, 1m 5m 30m 2h 12h, fits in the panel session's 24 hours)
    for (const minutes of [1, 5, 30, 120, 720]) {
      shop.clock.offsetMs += minutes * 60_000 + 1000;
      await shop.workers.webhooks.drain();
    }
    await page.getByLabel('Status').selectOption('dead');
    await row.getByText('dead').waitFor();

    answer = { status: 204, body: '' };
    const before = received;
    await page.getByRole('button', { name: 'Replay dead deliveries' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Replay dead deliveries' }).click();
    await page.getByText('Dead deliveries requeued').waitFor();
    await shop.workers.webhooks.drain();
    await page.getByLabel('Status').selectOption('succeeded');
    await page.getByRole('row').filter({ hasText: 'order.placed' }).getByText('succeeded').waitFor({ timeout: 20_000 });
    expect(received).toBeGreaterThan(before);
    shop.clock.offsetMs = 0;
  });
});

describe('the other settings', () => {
  it("ticks and clears a key's sales channel from the click itself, busy while the save is still on its way", async () => {
    const { sales_channel } = await shop.admin<{ sales_channel: { id: string } }>('POST', '/admin/sales-channels', {
      name: 'Outlet',
    });
    const { api_keys } = await shop.admin<{ api_keys: { id: string; type: string; revoked_at: string | null }[] }>(
      'GET',
      '/admin/api-keys',
    );
    const key = api_keys.find((k) => k.type === 'publishable' && !k.revoked_at)!;
    const linked = async () =>
      (
        await shop.admin<{ api_key: { sales_channels?: { id: string }[] } }>('GET', `/admin/api-keys/${key.id}`)
      ).api_key.sales_channels?.some((c) => c.id === sales_channel.id);
    // Each save answers late, as on a slow network: the box must not spring back meanwhile.
    await page.route('**/admin/api-keys/*/sales-channels', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    try {
      await nav('Settings');
      await page.getByRole('link', { name: 'API keys' }).click();
      const box = page.locator(`input[name="key-${key.id}-${sales_channel.id}"]`);
      await box.check();
      // Shown ticked and busy (no second click) while the save is on its way.
      expect(await box.isChecked()).toBe(true);
      expect(await box.isDisabled()).toBe(true);
      expect(await box.getAttribute('aria-busy')).toBe('true');
      await expect.poll(linked).toBe(true);
      await box.uncheck();
      expect(await box.isChecked()).toBe(false);
      expect(await box.isDisabled()).toBe(true);
      await expect.poll(linked).toBe(false);
      expect(await box.isChecked()).toBe(false);
      await expect.poll(() => box.isEnabled()).toBe(true);
    } finally {
      await page.unroute('**/admin/api-keys/*/sales-channels');
    }
  });

  it('API keys, sales channels, regions, shipping options, users and key/values each render their data', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page
      .getByRole('cell', { name: 'Default Publishable API Key' })
      .or(page.getByText(/^pk_/).first())
      .first()
      .waitFor();
    await screenshot(page, '32-api-keys');
    await page.getByRole('link', { name: 'Regions' }).click();
    await page.getByRole('cell', { name: 'Europe' }).waitFor();
    await page.getByRole('link', { name: 'Shipping options' }).click();
    // The regions page has a Name field too: under load it may still be shown right after the click.
    await page.getByLabel('Flat rate').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Standard');
    await page.getByLabel('Flat rate').fill('4.90');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: '€4.90' }).waitFor();
    await screenshot(page, '33-shipping');
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByRole('cell', { name: 'viewer@example.com' }).waitFor();
    await page.getByRole('link', { name: 'Key/value settings' }).click();
    await page.getByLabel('Key', { exact: true }).fill('shop.name');
    await page.getByLabel('Value', { exact: true }).fill('Acme Linen');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Acme Linen' }).waitFor();
    // A refused key is explained next to its field (the API names it).
    await page.getByLabel('Key', { exact: true }).fill('Bad Key');
    await page.getByLabel('Value', { exact: true }).fill('x');
    await page.evaluate(() => document.querySelector('form[aria-label="Set a value"]')?.setAttribute('novalidate', ''));
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.locator('.field-error', { hasText: "Field 'key' must match" });
    await error.waitFor();
    const key = page.getByLabel('Key', { exact: true });
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    expect(await key.getAttribute('aria-describedby')).toContain(await error.getAttribute('id'));
    await screenshot(page, '34-key-values');
  });

  it('notifications: the bell counts unread ones, mark read updates it', async () => {
    // The bell in the top bar (Settings has a Notifications tab of its own: the shop's outgoing messages).
    const bell = page.getByRole('banner');
    await bell.getByRole('link', { name: /^Notifications/ }).click();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const unread = await shop.admin<{ count: number }>('GET', '/admin/notifications?read=false&limit=0');
    if (unread.count > 0) {
      await bell.getByRole('link', { name: `Notifications, ${unread.count} unread` }).waitFor();
      await screenshot(page, '35-notifications');
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await bell.getByRole('link', { name: 'Notifications', exact: true }).waitFor();
    } else {
      await screenshot(page, '35-notifications');
    }
  });
});

describe('a marketplace instance', () => {
  it('shows the vendor side: catalog items, licenses, checkout sessions', async () => {
    const market = await startShop('vendor', { SERVICE_ROLE: 'marketplace', MARKETPLACE_RATE_LIMIT: '100000' });
    const { context, page: p } = await newPage(browser);
    try {
      await login(p, market);
      await p.getByRole('link', { name: 'Catalog items' }).click();
      await p.getByRole('heading', { name: 'Catalog items' }).waitFor();
      const { packExample } = await import('../../src/modules/marketplace/marketplace.testing.ts');
      const { writeFileSync, mkdtempSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const file = `${mkdtempSync(`${tmpdir()}/emporium-e2e-pkg-`)}/hello-widget-1.0.0.tgz`;
      writeFileSync(file, await packExample('hello-widget'));
      await p.getByLabel('Package (.tgz)').setInputFiles(file);
      await p.getByRole('button', { name: 'Publish' }).click();
      await p.getByRole('link', { name: 'Hello widget' }).waitFor();
      await screenshot(p, '40-vendor-items');
      await p.getByRole('link', { name: 'Hello widget' }).click();
      await p.getByRole('heading', { name: 'Versions' }).waitFor();
      await screenshot(p, '41-vendor-item');
      await p.getByRole('link', { name: 'Licenses' }).click();
      await p.getByText('No licenses issued yet.').waitFor();
      await p.getByRole('link', { name: 'Checkout sessions' }).click();
      await p.getByText('No purchases yet.').waitFor();
    } finally {
      await context.close();
      await market.close();
    }
  });
});
