import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ADMIN, testConfig } from '../app.ts';
import { buildApp } from '../../src/app.ts';
import { bootstrap } from '../../src/bootstrap.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { openPglite } from '../../src/platform/db/database.ts';

/**
 * The two servers a parity script drives, both over HTTP with the same calls: the stock Medusa
 * peer (../shared/tools/medusa-peer.sh, started by whoever runs the script) and Emporium (a
 * server at EMPORIUM_URL, or one started here on a temporary PGlite). Amounts are Medusa's major
 * units on both: Emporium is asked for them per request (`x-emporium-amount-units: major`).
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON of two different servers, read field by field
type Json = any;

export interface Backend {
  name: string;
  admin<T = Json>(method: string, path: string, body?: unknown): Promise<T>;
  /** A store call with the backend's publishable key (set by `setKey`) and, when given, a customer's token. */
  store<T = Json>(method: string, path: string, body?: unknown, token?: string): Promise<T>;
  /** A call without any key or token (customer sign-up and login). */
  open<T = Json>(method: string, path: string, body?: unknown): Promise<T>;
  setKey(token: string): void;
  close(): Promise<void>;
}

interface Target {
  name: string;
  url: string;
  email: string;
  password: string;
  headers?: Record<string, string>;
  close?: () => Promise<void>;
}

async function connect(t: Target): Promise<Backend> {
  let key = '';
  const call = async (method: string, p: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(t.url + p, {
      method,
      headers: {
        ...t.headers,
        ...headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${t.name}: ${method} ${p}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  };
  const { token } = await call('POST', '/auth/user/emailpass', {}, { email: t.email, password: t.password });
  const bearer = (tok?: string): Record<string, string> => (tok ? { authorization: `Bearer ${tok}` } : {});
  return {
    name: t.name,
    admin: (method, p, body) => call(method, p, bearer(token), body),
    store: (method, p, body, tok) => call(method, p, { 'x-publishable-api-key': key, ...bearer(tok) }, body),
    open: (method, p, body) => call(method, p, {}, body),
    setKey: (k) => {
      key = k;
    },
    close: async () => t.close?.(),
  };
}

/** The Medusa peer: MEDUSA_URL (default the peer script's port), with the peer script's admin. */
export function medusa(env = process.env): Promise<Backend> {
  return connect({
    name: 'medusa',
    url: env.MEDUSA_URL ?? 'http://127.0.0.1:9100',
    email: env.MEDUSA_ADMIN_EMAIL ?? 'admin@example.com',
    password: env.MEDUSA_ADMIN_PASSWORD ?? 'supersecret',
  });
}

/** Emporium at EMPORIUM_URL, or a fresh one on a temporary PGlite, listening on 127.0.0.1. */
export async function emporium(name = 'emporium', env = process.env): Promise<Backend> {
  const headers = { 'x-emporium-amount-units': 'major' };
  if (env.EMPORIUM_URL) {
    return connect({
      name,
      url: env.EMPORIUM_URL,
      email: env.EMPORIUM_ADMIN_EMAIL ?? 'admin@example.com',
      password: env.EMPORIUM_ADMIN_PASSWORD ?? '',
      headers,
    });
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), `emporium-parity-${name}-`));
  const database = await openPglite(path.join(dataDir, 'pglite'));
  await database.migrate();
  const config = testConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1' });
  const app = await buildApp({ database, config, clock: systemClock, logger: false });
  await bootstrap({ db: database.db, clock: systemClock, log: app.log }, config);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return connect({
    name,
    url,
    ...ADMIN,
    headers,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
