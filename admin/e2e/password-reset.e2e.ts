import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';
import { installMailbox } from './mailbox.ts';

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('reset'), launchBrowser()]);
  ({ page, errors } = await newPage(browser));
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe('password reset in the panel, signed out', () => {
  it('asks for a link from the login page, sets a new password from the emailed link, and signs in with it', async () => {
    const mailbox = installMailbox(shop);
    await page.goto(`${shop.url}/app/`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    const mail = mailbox.next();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.keyboard.press('Enter');
    await page.getByText(`If ${ADMIN.email} has an account`).waitFor();
    const { to, data } = await mail;
    expect(to).toBe(ADMIN.email);
    const link = new URL(String(data.reset_url));
    expect(link.pathname).toBe('/app/reset-password');
    expect(link.searchParams.get('email')).toBe(ADMIN.email);

    // The emailed link points at PUBLIC_URL; the same path on the test server.
    await page.goto(`${shop.url}${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('long-enough-1');
    await page.getByLabel('Repeat the new password').fill('long-enough-2');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    expect(await page.getByLabel('Repeat the new password').getAttribute('aria-invalid')).toBe('true');
    // Too short for the API: its message appears under the password field (the form lets it through).
    await page.getByLabel('New password', { exact: true }).evaluate((el) => el.removeAttribute('minlength'));
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat the new password').fill('short');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.locator('.field-error', { hasText: 'password' }).waitFor();
    expect(await page.getByLabel('New password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, '05-reset-password-error', { docs: 'admin-reset-password' });

    await page.getByLabel('New password', { exact: true }).fill('a-new-long-password');
    await page.getByLabel('Repeat the new password').fill('a-new-long-password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();

    // The link works once.
    await page.goto(`${shop.url}${link.pathname}${link.search}`);
    await page.getByLabel('New password', { exact: true }).fill('another-password-1');
    await page.getByLabel('Repeat the new password').fill('another-password-1');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('This link has expired or was already used.').waitFor();

    await login(page, shop, { email: ADMIN.email, password: 'a-new-long-password' });
    expect(errors).toEqual([]);
  });

  it('without a token the page says what it needs', async () => {
    await page.context().clearCookies();
    await page.goto(`${shop.url}/app/reset-password`);
    await page.getByText('This page needs the link from the password reset email.').waitFor();
    await page.getByRole('link', { name: 'Ask for a link' }).waitFor();
  });
});
