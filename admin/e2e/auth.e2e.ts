import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ADMIN, VIEWER, launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

let shop: Shop;
let browser: Browser;
beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop('auth'), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

describe('signing in and out', () => {
  it('login sets the HTTP-only cookies, shows Home; logout revokes the session server-side', async () => {
    const { context, page, errors } = await newPage(browser);
    await page.goto(`${shop.url}/app/`);
    await page.getByRole('heading', { name: 'Sign in to Emporium' }).waitFor();
    await screenshot(page, '01-login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong email or password.').waitFor();
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    const cookies = await context.cookies();
    for (const name of ['admin_token', 'admin_session']) {
      expect(cookies.find((c) => c.name === name)).toMatchObject({
        httpOnly: true,
        sameSite: 'Strict',
        path: '/admin',
      });
    }
    // The cookies are invisible to scripts.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Emporium' }).waitFor();
    // The old cookies, replayed, are refused: the session is gone on the server.
    const header = cookies
      .filter((c) => c.name.startsWith('admin_'))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    expect((await fetch(`${shop.url}/admin/users/me`, { headers: { cookie: header } })).status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an expired token sends the operator to the login and back to the page they were on', async () => {
    const { context, page } = await newPage(browser);
    await login(page, shop, ADMIN, '/app/customers?q=ada');
    await page.getByRole('heading', { name: 'Customers' }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/app/customers?q=ada');
    shop.clock.offsetMs = 25 * 3600 * 1000;
    try {
      await page.getByRole('link', { name: 'Orders', exact: true }).click();
      await page.getByText('Your session has ended').waitFor();
      expect(new URL(page.url()).searchParams.get('next')).toBe('/orders');
      await screenshot(page, '02-login-expired');
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Orders' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/app/orders');
    } finally {
      shop.clock.offsetMs = 0;
      await context.close();
    }
  });
});

describe('CSRF', () => {
  let attacker: Server;
  let attackerUrl = '';
  beforeAll(async () => {
    // Another site on this machine (another port: same site, other origin, so SameSite does not help).
    attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<form id="f" method="POST" action="${shop.url}/admin/settings" enctype="application/x-www-form-urlencoded">
        <input name="key" value="pwned"><input name="value" value="yes"></form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerUrl = `http://127.0.0.1:${(attacker.address() as { port: number }).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => attacker.close(() => resolve())));

  it('a cross-site form post with the panel cookies gets 403; a write without the header token too', async () => {
    const { context, page } = await newPage(browser);
    await login(page, shop);
    const attack = await context.newPage();
    const response = attack.waitForResponse((r) => r.url() === `${shop.url}/admin/settings`);
    await attack.goto(attackerUrl);
    const res = await response;
    expect(res.status()).toBe(403);
    expect(await res.json()).toEqual({
      type: 'forbidden',
      code: 'cross_site_refused',
      message: 'Cross-site request refused',
    });
    // Same-origin script without the session's token: refused as well.
    const noToken = await page.evaluate(async () => {
      const r = await fetch('/admin/settings', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'pwned', value: 'yes' }),
      });
      return r.status;
    });
    expect(noToken).toBe(403);
    const settings = await shop.admin<{ settings: { key: string }[] }>('GET', '/admin/settings');
    expect(settings.settings.map((s) => s.key)).not.toContain('pwned');
    await context.close();
  });
});

describe('viewer', () => {
  it('sees every area without write buttons, and the API still refuses a write', async () => {
    await shop.admin('POST', '/admin/customers', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
    });
    const { context, page } = await newPage(browser);
    await login(page, shop, VIEWER);
    for (const [link, heading] of [
      ['Products', 'Products'],
      ['Customers', 'Customers'],
      ['Orders', 'Orders'],
      ['Plugins', 'Plugins'],
      ['Settings', 'Settings'],
    ]) {
      await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      const writes = page.getByRole('button', {
        name: /^(Add|Create|Delete|Save|Install|Uninstall|Revoke|Capture|Cancel order|Mark all)/,
      });
      expect(await writes.count(), `${heading} shows no write button to a viewer`).toBe(0);
      expect(await page.getByRole('link', { name: /^Add / }).count()).toBe(0);
    }
    await screenshot(page, '03-viewer-settings');
    const status = await page.evaluate(async () => {
      const session = await (await fetch('/admin/panel/session')).json();
      const r = await fetch('/admin/customers', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token },
        body: JSON.stringify({ first_name: 'Nope' }),
      });
      return r.status;
    });
    expect(status).toBe(403);
    await context.close();
  });
});

describe('first load', () => {
  it('carries at most 250 KB of JavaScript gzipped, and the page is interactive', async () => {
    const html = await (await fetch(`${shop.url}/app/`)).text();
    const scripts = [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    let gz = 0;
    for (const s of scripts)
      gz += gzipSync(Buffer.from(await (await fetch(shop.url + s)).arrayBuffer()), { level: 9 }).length;
    expect(scripts.length).toBeGreaterThan(0);
    expect(gz).toBeLessThanOrEqual(250 * 1024);
    // Reported, not asserted (timings are never asserted): from navigation to a usable login form.
    const { context, page } = await newPage(browser);
    const started = Date.now();
    await page.goto(`${shop.url}/app/`);
    await page.getByLabel('Email').waitFor();
    console.log(
      `first load: ${scripts.length} scripts, ${(gz / 1024).toFixed(1)} KB gzipped; login form usable after ${Date.now() - started} ms`,
    );
    await context.close();
  });
});
