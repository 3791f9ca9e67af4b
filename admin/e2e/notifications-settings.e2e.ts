import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, VIEWER, launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';
import { installMailbox } from './mailbox.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('messages'), launchBrowser()]);
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

/** A message the shop queues on its own: an admin's password reset link. */
const askReset = (email: string) =>
  fetch(`${shop.url}/auth/user/emailpass/reset-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: email }),
  });

const history = () => page.getByRole('region', { name: 'Delivery history' });

describe('Settings → Notifications', () => {
  it('says plainly that nothing is sent while no provider is installed, and lists the unsent message', async () => {
    expect((await askReset(ADMIN.email)).status).toBe(201);
    await page.goto(`${shop.url}/app/settings/notifications`);
    await page.getByText('No notification provider installed: nothing is sent.').waitFor();
    const row = history().getByRole('row', { name: /auth\.password_reset/ });
    await row.getByText('not sent').waitFor();
    expect(await row.textContent()).toContain(ADMIN.email);
    await screenshot(page, '39-settings-notifications-none');
  });

  it('lists the installed provider, shows failed tries with their error, retries, and previews a template', async () => {
    const mailbox = installMailbox(shop);
    mailbox.failing = true;
    await page.reload();
    await page.getByRole('cell', { name: 'Test mailbox (mailbox)' }).waitFor();
    expect(await page.getByText('No notification provider installed').count()).toBe(0);

    expect((await askReset(VIEWER.email)).status).toBe(201);
    await history().getByRole('button', { name: 'Refresh' }).click();
    await history().getByText('mailbox unreachable: connection refused').waitFor({ timeout: 20_000 });
    const failing = history().getByRole('row', { name: new RegExp(VIEWER.email) });
    expect(await failing.getByRole('cell').nth(2).textContent()).toBe('pending');

    // The first message, not sent for want of a provider, goes out once retried.
    mailbox.failing = false;
    const sent = mailbox.next();
    await history()
      .getByRole('button', { name: `Retry auth.password_reset to ${ADMIN.email}` })
      .click();
    expect((await sent).to).toBe(ADMIN.email);
    const done = history().getByRole('row', { name: new RegExp(ADMIN.email) });
    await done.getByText('sent', { exact: true }).waitFor();
    expect(await done.getByRole('cell').nth(3).textContent()).toBe('mailbox');

    const preview = page.getByRole('region', { name: 'Preview' });
    await page.getByLabel('Template', { exact: true }).selectOption('order.placed');
    await preview.getByText('Your order #1042 is confirmed').waitFor();
    const data = page.getByLabel('Data (JSON)');
    await data.fill('{"display_id": 7, "first_name": "Grace", "items": []}');
    await page.getByRole('button', { name: 'Preview' }).click();
    await preview.getByText('Your order #7 is confirmed').waitFor();
    expect(await preview.getByLabel('Text version').textContent()).toContain('Hello Grace,');
    await data.fill('[1, 2]');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.locator('.field-error', { hasText: 'The data must be a JSON object.' }).waitFor();
    expect(await data.getAttribute('aria-invalid')).toBe('true');
    await data.fill('{"display_id": 1042, "first_name": "Ada"}');
    await page.getByRole('button', { name: 'Preview' }).click();
    await preview.getByText('Your order #1042 is confirmed').waitFor();
    await page.setViewportSize({ width: 1280, height: 1600 });
    await screenshot(page, '40-settings-notifications', { quiet: true, docs: 'admin-notifications' });
    expect(errors).toEqual([]);
  });

  it('is read-only for a viewer: no retry, no preview request, the data not editable', async () => {
    const viewer = await newPage(browser);
    await login(viewer.page, shop, VIEWER, '/app/settings/notifications');
    const p = viewer.page;
    await p.getByRole('region', { name: 'Delivery history' }).getByText('auth.password_reset').first().waitFor();
    await p.getByText('Previews are rendered by the server on request, which needs the admin role.').waitFor();
    expect(await p.getByRole('button', { name: /Retry|Preview/ }).count()).toBe(0);
    expect(await p.getByLabel('Data (JSON)').getAttribute('readonly')).not.toBeNull();
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });
});
