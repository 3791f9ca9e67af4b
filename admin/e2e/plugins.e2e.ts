import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { packExample } from '../../src/modules/marketplace/marketplace.testing.ts';
import { packPlugin, startMarketplace, type TestMarketplace } from '../../src/modules/plugins/plugins.testing.ts';
import { pollRevocations } from '../../src/modules/federation/revocations.ts';
import { ADMIN, launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let market: TestMarketplace;
let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];

const widget = (id: string, name: string, render: string, manifest: Record<string, unknown> = {}) =>
  packPlugin(
    { id, name, type: 'admin-extension', admin: 'admin/index.js', ...manifest },
    { 'admin/index.js': `export default { slot: 'dashboard', title: ${JSON.stringify(name)}, ${render} };` },
  );

beforeAll(async () => {
  market = await startMarketplace();
  await market.publish(await packExample('hello-widget'));
  await market.publish(await packExample('loyalty-points'), { price_eur: '19.90' });
  await market.publish(await packExample('order-notes'));
  await market.publish(
    await widget('broken-widget', 'Broken widget', `render() { throw new Error('kaboom from the widget'); }`),
  );
  await market.publish(await widget('hanging-widget', 'Hanging widget', `render() { return new Promise(() => {}); }`));
  // Tries every way out of its frame; renders what each attempt got.
  await market.publish(
    await widget(
      'curious-widget',
      'Curious widget',
      `async render(el, api) {
        const out = [];
        try { out.push('cookie:' + document.cookie); } catch (e) { out.push('cookie:refused'); }
        try { await fetch('/admin/users/me'); out.push('fetch:ok'); } catch (e) { out.push('fetch:refused'); }
        try { await api.fetch('/admin/settings', { method: 'POST', body: { key: 'x', value: 'y' } }); out.push('post:ok'); } catch (e) { out.push('post:' + e.status); }
        try { const me = await api.fetch('/admin/users/me'); out.push('get:' + me.user.email); } catch (e) { out.push('get:' + e.message); }
        el.textContent = out.join(' ');
      }`,
    ),
  );
  [shop, browser] = await Promise.all([
    startShop('plugins', { SERVICE_FEDERATION_URL: market.url, SERVICE_FEDERATION_PK: 'pk_test_tenant' }),
    launchBrowser(),
  ]);
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await market?.close();
});

const nav = (name: string) =>
  page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name, exact: true }).click();

async function installFromMarketplace(name: string) {
  await nav('Marketplace');
  const card = page.getByRole('article', { name });
  await card.getByRole('button', { name: 'Install' }).click();
  await card.getByText('installed', { exact: true }).waitFor({ timeout: 30_000 });
}

describe('plugins from the marketplace', () => {
  it('installs a free plugin from the marketplace view and shows its widget on Home, sandboxed', async () => {
    await nav('Marketplace');
    await page.getByRole('article', { name: 'Hello widget' }).waitFor();
    await screenshot(page, '20-marketplace');
    await installFromMarketplace('Hello widget');
    await nav('Home');
    const frame = page.frameLocator('iframe[title="Hello widget extension"]');
    await frame.getByText('Hello from Acme').waitFor();
    await frame.getByText('Orders today: 0').waitFor();
    expect(await page.locator('iframe[title="Hello widget extension"]').getAttribute('sandbox')).toBe('allow-scripts');
    await screenshot(page, '21-home-widget');
    await nav('Plugins');
    await page.getByRole('link', { name: 'Hello widget' }).waitFor();
    await screenshot(page, '22-plugins');
  });

  it('an item page shows the full description and every version', async () => {
    await nav('Marketplace');
    await page.getByRole('link', { name: 'Hello widget' }).click();
    await page.getByText('A dashboard widget that greets the signed-in operator').waitFor();
    await page.getByRole('cell', { name: '1.0.0', exact: true }).waitFor();
    await page.getByText('installed', { exact: true }).waitFor();
    await screenshot(page, '20-marketplace-item');
  });

  it('a broken or hanging extension shows its failure card while the page keeps working', async () => {
    await installFromMarketplace('Broken widget');
    await installFromMarketplace('Hanging widget');
    await nav('Home');
    await page.getByRole('heading', { name: 'Broken widget: this extension failed' }).waitFor();
    await page.getByText('kaboom from the widget').waitFor();
    await page.getByRole('heading', { name: 'Hanging widget: this extension failed' }).waitFor({ timeout: 20_000 });
    await page.frameLocator('iframe[title="Hello widget extension"]').getByText('Hello from Acme').waitFor();
    await page.getByRole('heading', { name: 'Orders today' }).waitFor();
    await screenshot(page, '23-home-failed-extension');
    // The page around still works: navigate and come back.
    await nav('Orders');
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('an extension has no cookies, no network and only read-only GETs through the bridge', async () => {
    await installFromMarketplace('Curious widget');
    await nav('Home');
    const frame = page.frameLocator('iframe[title="Curious widget extension"]');
    await frame.getByText(`cookie:refused fetch:refused post:403 get:${ADMIN.email}`).waitFor();
  });

  it('?safe-mode=1 loads no extension at all', async () => {
    await page.goto(`${shop.url}/app/?safe-mode=1`);
    await page.getByText('Safe mode: plugin extensions are not loaded.').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    await page.goto(`${shop.url}/app/?safe-mode=0`);
    await page.frameLocator('iframe[title="Hello widget extension"]').getByText('Hello from Acme').waitFor();
  });

  it('a bundle whose bytes do not match the reported sha256 is not loaded', async () => {
    await page.route('**/admin/plugins/*/admin-bundle', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, body: `${await res.text()}\n// tampered` });
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Hello widget: this extension failed' }).waitFor();
    await page
      .getByText(/bundle sha256 mismatch/)
      .first()
      .waitFor();
    await page.unroute('**/admin/plugins/*/admin-bundle');
  });

  it('buys a paid plugin: the provider page opens, the panel follows the purchase and the plugin installs by itself', async () => {
    await nav('Marketplace');
    const card = page.getByRole('article', { name: 'Loyalty points' });
    const popup = page.context().waitForEvent('page');
    await card.getByRole('button', { name: 'Buy €19.90' }).click();
    const provider = await popup;
    await provider.getByRole('button', { name: /^Pay/ }).click();
    await page.getByText('Paid: Loyalty points is installing with its license.').waitFor({ timeout: 20_000 });
    await card.getByText('installed', { exact: true }).waitFor({ timeout: 30_000 });
    await provider.close();
    await nav('Plugins');
    const row = page.getByRole('row').filter({ hasText: 'Loyalty points' });
    await row.getByText(/verified .*; works offline until/).waitFor();
    await screenshot(page, '25-plugins-licensed');
  });

  it('configures a plugin from its manifest fields; a secret shows masked and is kept unless retyped', async () => {
    await installFromMarketplace('Order notes');
    await nav('Plugins');
    await page.getByRole('link', { name: 'Order notes' }).click();
    const form = page.getByRole('form', { name: 'Plugin configuration' });
    await form.getByLabel('Notes service API key (required)').fill('sk-notes-0123456789');
    await form.getByLabel('Text put before every note').fill('[shop]');
    await form.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('Configuration saved; the plugin has it now').waitFor();
    const secret = form.getByLabel('Notes service API key (required)');
    expect(await secret.inputValue()).toBe('');
    expect(await secret.getAttribute('placeholder')).toBe('••••6789 (saved; type to replace)');
    // Changing only the prefix keeps the secret: it is not sent back.
    await form.getByLabel('Text put before every note').fill('[acme]');
    const sent = page.waitForRequest((r) => r.url().endsWith('/configure') && r.method() === 'POST');
    await form.getByRole('button', { name: 'Save configuration' }).click();
    expect((await sent).postDataJSON()).toEqual({ config: { note_prefix: '[acme]' } });
    await page.getByText('Configuration saved; the plugin has it now').first().waitFor();
    await screenshot(page, '26-plugin-config', { quiet: true });
  });

  it("shows each installed plugin's rating and the revocation list's verdict on it", async () => {
    // This shop rates Order notes (its operator's action, sent with the instance token).
    await shop.admin('POST', '/admin/marketplace/reviews', {
      marketplace_id: '@acme/order-notes',
      rating: 4,
      body: 'Does what it says',
    });
    // The marketplace revokes the installed Hello widget 1.0.0 with a warning; the shop polls.
    const items = await market.app.inject({
      method: 'GET',
      url: '/admin/marketplace/items?limit=100',
      headers: { authorization: `Bearer ${market.adminToken}` },
    });
    const hello = items.json().items.find((i: { marketplace_id: string }) => i.marketplace_id === '@acme/hello-widget');
    const revoked = await market.app.inject({
      method: 'POST',
      url: `/admin/marketplace/items/${hello.id}/versions/${hello.versions[0].id}/revoke`,
      headers: { authorization: `Bearer ${market.adminToken}` },
      payload: { severity: 'warning', reason: 'Greets with the operator name in the page title' },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const polled = await pollRevocations(
      { db: shop.database.db, clock: shop.clock, log: shop.app.log },
      shop.app.plugins.deps.config,
      shop.app.plugins,
      true,
    );
    expect(polled).toMatchObject({ status: 'accepted', applied: 1 });

    await nav('Plugins');
    await page.reload(); // the listings are cached for minutes
    const notes = page.getByRole('row').filter({ hasText: 'Order notes' });
    await notes.getByRole('img', { name: 'rated 4 of 5 by 1 shop' }).waitFor();
    const widgetRow = page.getByRole('row').filter({ hasText: 'Hello widget' });
    await widgetRow.getByText('revoked · warning').waitFor();
    await widgetRow.getByText('Greets with the operator name in the page title').waitFor();
    await page.getByRole('row').filter({ hasText: 'Loyalty points' }).getByText('no ratings yet').waitFor();
    await screenshot(page, '27-plugins-rating-revocation');
  });

  it('says so clearly when the marketplace is down', async () => {
    market.failWith = 503;
    try {
      await nav('Marketplace');
      await page.reload();
      await page.getByText('The marketplace cannot be reached right now').waitFor();
      await screenshot(page, '24-marketplace-down');
    } finally {
      market.failWith = null;
    }
  });
});
