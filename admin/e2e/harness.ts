import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN, VIEWER, testConfig } from '../../test/app.ts';
import { buildApp } from '../../src/app.ts';
import { bootstrap } from '../../src/bootstrap.ts';
import type { Clock } from '../../src/platform/clock.ts';
import { openPglite, openPostgres, type Database } from '../../src/platform/db/database.ts';
import type { App } from '../../src/platform/http/types.ts';
import { createUser } from '../../src/modules/auth/service.ts';
import { createWorkers, type Workers } from '../../src/workers.ts';

export { ADMIN, VIEWER };

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../.artifacts/screenshots');
const DOCS = path.resolve(import.meta.dirname, '../../docs');

/** Real time that a test can move forward (an expired token without waiting 24 hours). */
export class ShiftClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

export interface Shop {
  url: string;
  app: App;
  database: Database;
  workers: Workers;
  clock: ShiftClock;
  publishableKey: string;
  /** Admin API as the first admin, with a bearer token (to seed data the way an integration would). */
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  store<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

let dbSeq = 0;

/** Runs maintenance statements on DATABASE_URL's server (database `postgres`). */
async function onServer(base: string, statements: string[]): Promise<void> {
  const maintenance = new URL(base);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** PGlite under the temp data dir, or a fresh database on DATABASE_URL's server (dropped again by `drop`). */
async function freshDatabase(
  name: string,
  dataDir: string,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) return { database: await openPglite(path.join(dataDir, 'pglite')), drop: async () => {} };
  const url = new URL(base);
  const db = `${url.pathname.slice(1) || 'admin_panel'}_e2e_${name}_${++dbSeq}`.replace(/[^a-z0-9_]/g, '_');
  await onServer(base, [`drop database if exists "${db}" with (force)`, `create database "${db}"`]);
  url.pathname = `/${db}`;
  return {
    database: await openPostgres(url.toString(), 5),
    drop: () => onServer(base, [`drop database if exists "${db}" with (force)`]),
  };
}

/** A real shop (or marketplace) listening on 127.0.0.1 with its workers, on a temp DATA_DIR (or a fresh database on DATABASE_URL). */
export async function startShop(name: string, env: Record<string, string> = {}): Promise<Shop> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `emporium-e2e-${name}-`));
  const { database, drop } = await freshDatabase(name, dataDir);
  await database.migrate();
  const clock = new ShiftClock();
  const pluginsDir = path.join(dataDir, 'plugins');
  mkdirSync(pluginsDir, { recursive: true });
  const config = testConfig({
    DATA_DIR: dataDir,
    PLUGINS_DIR: pluginsDir,
    PUBLIC_URL: env.PUBLIC_URL ?? 'http://127.0.0.1',
    ...env,
  });
  const app = await buildApp({ database, config, clock, logger: false });
  const ctx = { db: database.db, clock, log: app.log };
  const report = await bootstrap(ctx, config);
  await createUser(ctx, { ...VIEWER, role: 'viewer' });
  const workers = createWorkers({ database, clock, log: app.log, config, plugins: app.plugins });
  await workers.start();
  const url = await app.listen({ host: '127.0.0.1', port: Number(env.PORT ?? 0) });
  const token = (
    await (
      await fetch(`${url}/auth/user/emailpass`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      })
    ).json()
  ).token;
  const call = async (p: string, method: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(url + p, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  return {
    url,
    app,
    database,
    workers,
    clock,
    publishableKey: report.publishableKey!,
    admin: (method, p, body) => call(p, method, { authorization: `Bearer ${token}` }, body),
    store: (method, p, body) => call(p, method, { 'x-publishable-api-key': report.publishableKey! }, body),
    close: async () => {
      await workers.stop();
      await app.close();
      await database.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless, through playwright-core (never a downloaded browser). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh browser context (its own cookies), with page errors collected for the test to check. */
export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors };
}

export async function login(page: Page, shop: Shop, who = ADMIN, path = '/app/'): Promise<void> {
  await page.goto(shop.url + path);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

/**
 * Saves a full-page screenshot under .artifacts/screenshots (gitignored) for a person to look at;
 * `quiet` leaves the toasts out (the shots the README shows); `docs` also writes docs/<docs>.png,
 * the committed picture of that screen.
 */
export async function screenshot(
  page: Page,
  name: string,
  opts: { quiet?: boolean; docs?: string } = {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const style = opts.quiet ? '.toasts { display: none }' : undefined;
  // Debian's Chromium keeps the toasts despite `style`: hidden on the page itself for the shots.
  const hideToasts = (hidden: boolean) =>
    page.evaluate((h) => {
      for (const el of document.querySelectorAll<HTMLElement>('.toasts')) el.style.visibility = h ? 'hidden' : '';
    }, hidden);
  if (opts.quiet) await hideToasts(true);
  try {
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, style });
    // The committed picture is the first screenful, as an operator sees the page open.
    if (opts.docs) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(DOCS, `${opts.docs}.png`), style });
    }
  } finally {
    if (opts.quiet) await hideToasts(false);
  }
}
