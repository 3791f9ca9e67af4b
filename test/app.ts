import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { FakeClock } from '../src/platform/clock.ts';
import { loadConfig, type Config } from '../src/platform/config.ts';
import type { Ctx } from '../src/platform/context.ts';
import type { Database } from '../src/platform/db/database.ts';
import type { App, AppDeps } from '../src/platform/http/types.ts';
import { createUser } from '../src/modules/auth/service.ts';
import { createWorkers, type Workers } from '../src/workers.ts';
import { resetDatabase, testDatabase } from './database.ts';

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };
export const VIEWER = { email: 'viewer@example.com', password: 'viewer-password-1' };

type Body = InjectOptions['payload'];
type Headers = Record<string, string>;

export interface TestApp {
  app: App;
  database: Database;
  config: Config;
  clock: FakeClock;
  ctx: Ctx;
  adminToken: string;
  viewerToken: string;
  publishableKey: string;
  /** Event bus and dispatcher, not running on their own: call `t.workers.dispatcher.drain()`. */
  workers: Workers;
  /** Raw inject, for tests that need full control over headers. */
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** As the admin (bearer), or as another token with `{ token }`. */
  admin(
    method: string,
    url: string,
    body?: Body,
    opts?: { token?: string; headers?: Headers },
  ): Promise<LightMyRequestResponse>;
  /** With the default publishable key, or another with `{ key }` (null sends none). */
  store(
    method: string,
    url: string,
    body?: Body,
    opts?: { key?: string | null; headers?: Headers },
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** An answer as one object to match: its status beside its JSON body (`{ status, type, message }` for an error). */
export function statusAndBody(res: { statusCode: number; json(): unknown }) {
  return { status: res.statusCode, ...(res.json() as { type: string; message: string }) };
}

/** An error answer cut to what a client switches on: `{ status, type, code }`. */
export function errorOf(res: { statusCode: number; json(): { type: string; code?: string } }) {
  return { status: res.statusCode, type: res.json().type, code: res.json().code };
}

/** Every Redis key a test run writes carries this prefix: runs sharing the machine's Redis never meet. */
export const TEST_REDIS_PREFIX = `emporium-test-${process.pid}-${Date.now().toString(36)}:`;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    REDIS_PREFIX: TEST_REDIS_PREFIX,
    DATA_DIR: '/tmp/emporium-test-unused',
    JWT_SECRET: 'test-jwt-secret-0123456789abcdef',
    COOKIE_SECRET: 'test-cookie-secret-0123456789',
    ENCRYPTION_KEY: 'test-encryption-key-0123456789abcdef',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://shop.test',
    ...overrides,
  });
}

/**
 * The real app on the worker's shared database, emptied first, with an admin, a viewer,
 * the default channel and key, and a fake clock (starting at real now, so JWTs look sane).
 */
export async function startTestApp(opts: { env?: Record<string, string>; clock?: FakeClock } = {}): Promise<TestApp> {
  const database = await testDatabase();
  await resetDatabase(database);
  const config = testConfig(opts.env);
  const clock = opts.clock ?? new FakeClock(new Date());
  const app = await buildApp({ database, config, clock, logger: false });
  const ctx: Ctx = { db: database.db, clock, log: app.log };
  const report = await bootstrap(ctx, config);
  await createUser(ctx, { ...VIEWER, role: 'viewer' });

  const login = async (who: { email: string; password: string }) => {
    const res = await app.inject({ method: 'POST', url: '/auth/user/emailpass', payload: who });
    if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
    return res.json().token as string;
  };
  const adminToken = await login(ADMIN);
  const viewerToken = await login(VIEWER);
  const publishableKey = report.publishableKey!;
  const workers = createWorkers({ database, clock, log: app.log, config, plugins: app.plugins });

  const send = (method: string, url: string, body: Body, headers: Headers) =>
    app.inject({ method: method as InjectOptions['method'], url, payload: body, headers });

  return {
    app,
    database,
    config,
    clock,
    ctx,
    adminToken,
    viewerToken,
    publishableKey,
    workers,
    inject: (o) => app.inject(o),
    admin: (method, url, body, o = {}) =>
      send(method, url, body, { authorization: `Bearer ${o.token ?? adminToken}`, ...o.headers }),
    store: (method, url, body, o = {}) => {
      const key = o.key === undefined ? publishableKey : o.key;
      return send(method, url, body, { ...(key === null ? {} : { 'x-publishable-api-key': key }), ...o.headers });
    },
    close: async () => {
      await workers.stop();
      await app.close();
    },
  };
}

/** Closes what a file started, in the order given, passing over what never started (a failed `beforeAll`). */
export async function closeAll(...running: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  for (const r of running) await r?.close();
}

/**
 * Another instance on the test's database and clock: configured by `env` over the test defaults
 * (without it, as `t` is), not bootstrapped, without workers. The caller closes it.
 */
export function anotherApp(t: TestApp, env?: Record<string, string>, deps: Partial<AppDeps> = {}): Promise<App> {
  const config = env ? testConfig(env) : t.config;
  return buildApp({ database: t.database, config, clock: t.clock, logger: false, ...deps });
}
