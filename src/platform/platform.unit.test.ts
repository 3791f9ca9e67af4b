import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lockAddonLoader, lockDataDir } from './db/data-dir-lock.ts';
import { parseDurationSeconds } from './duration.ts';
import { errorTypeOfStatus } from './http/errors.ts';
import { validationMessage } from './http/validation-message.ts';
import { newId } from './ids.ts';
import { loadConfig } from './config.ts';

const LOCK_MODULE = fileURLToPath(new URL('./db/data-dir-lock.ts', import.meta.url));

describe('parseDurationSeconds', () => {
  it.each([
    ['24h', 86400],
    ['1d', 86400],
    ['90m', 5400],
    ['3600', 3600],
    ['15s', 15],
  ])('%s → %i', (text, seconds) => expect(parseDurationSeconds(text)).toBe(seconds));
  it.each(['', 'abc', '1w', '-5', '0', '1.5h'])('rejects %j', (text) => expect(parseDurationSeconds(text)).toBeNull());
});

describe('errorTypeOfStatus', () => {
  it.each([
    [400, 'invalid_data'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'conflict'],
    [422, 'duplicate_error'],
    [429, 'too_many_requests'],
    [418, 'invalid_data'],
  ])('%i → %s (the contract’s mapping)', (status, type) => expect(errorTypeOfStatus(status)).toBe(type));
});

describe('newId', () => {
  it('is prefixed and sorts by creation', () => {
    const ids = Array.from({ length: 50 }, () => newId('prod'));
    expect(ids[0]).toMatch(/^prod_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(50);
  });
});

describe('validationMessage', () => {
  it('speaks Medusa', () => {
    expect(
      validationMessage([
        { instancePath: '', keyword: 'required', params: { missingProperty: 'title' } },
        { instancePath: '/variants/0', keyword: 'additionalProperties', params: { additionalProperty: 'foo' } },
        { instancePath: '/variants/0/prices/1/amount', keyword: 'type', params: { type: 'integer' } },
        { instancePath: '/x', keyword: 'type', params: { type: 'string' } },
      ]),
    ).toBe(
      "Invalid request: Field 'title' is required; Unrecognized fields: 'variants.0.foo'; Expected type: 'integer' for field 'variants.0.prices.1.amount'",
    );
    expect(
      validationMessage(
        [{ instancePath: '/limit', keyword: 'minimum', params: {}, message: 'must be >= 0' }],
        'querystring',
      ),
    ).toBe("Invalid request (query): Field 'limit' must be >= 0");
  });
});

describe('lockDataDir', () => {
  it('refuses a second opener and takes over a lock left by a dead process', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emporium-lock-'));
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(/already open/);
    release();
    writeFileSync(path.join(dir, 'emporium.lock'), '999999999');
    const again = lockDataDir(dir);
    again();
  });
  it('refuses a data dir held by another live process, and takes it once that process is killed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emporium-lock-'));
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${LOCK_MODULE}').then((m) => { m.lockDataDir(${JSON.stringify(dir)}); console.log('held'); setInterval(() => {}, 1000); })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.on('data', (d) => String(d).includes('held') && resolve()));
    expect(() => lockDataDir(dir)).toThrow(new RegExp(`in use by process ${holder.pid}`));
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    lockDataDir(dir)();
  });
  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    "loads the package's prebuilt addon by its path on Linux, and its lock excludes the package's own API",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'emporium-lock-'));
      const release = lockDataDir(dir);
      expect(lockAddonLoader()).toBe('prebuilt');
      // The package's API on another open file description of the same file sees the lock.
      const fsx = createRequire(import.meta.url)('fs-native-extensions');
      const fd = openSync(path.join(dir, 'emporium.lock'), 'r+');
      expect(fsx.tryLock(fd)).toBe(false);
      release();
      expect(fsx.tryLock(fd)).toBe(true);
      fsx.unlock(fd);
      closeSync(fd);
    },
  );
  it('is not fooled by a PID file naming a live process that holds no lock (a container restart)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emporium-lock-'));
    writeFileSync(path.join(dir, 'emporium.lock'), String(process.ppid));
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, 'emporium.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });
});

describe('loadConfig', () => {
  const secrets = {
    JWT_SECRET: 'j'.repeat(32),
    COOKIE_SECRET: 'c'.repeat(32),
    ENCRYPTION_KEY: 'e'.repeat(32),
    DATA_DIR: '/tmp/emporium-config-test',
  };
  it('refuses a production marketplace whose only payment provider is the test one', () => {
    expect(() => loadConfig({ ...secrets, NODE_ENV: 'production', SERVICE_ROLE: 'marketplace' })).toThrow(
      /STRIPE_SECRET_KEY/,
    );
    expect(
      loadConfig({ ...secrets, NODE_ENV: 'production', SERVICE_ROLE: 'marketplace', MARKETPLACE_TEST_PAYMENTS: 'true' })
        .role,
    ).toBe('marketplace');
    expect(loadConfig({ ...secrets, SERVICE_ROLE: 'marketplace' }).port).toBe(9100);
  });
  it('reads AMOUNT_UNITS (minor by default, a typo refused) and STORE_LOCALES', () => {
    expect(loadConfig(secrets).amountUnits).toBe('minor');
    expect(loadConfig({ ...secrets, AMOUNT_UNITS: 'major' }).amountUnits).toBe('major');
    expect(() => loadConfig({ ...secrets, AMOUNT_UNITS: 'cents' })).toThrow(/AMOUNT_UNITS must be minor or major/);
    expect(loadConfig(secrets).storeLocales).toEqual(['en-US']);
    expect(loadConfig({ ...secrets, STORE_LOCALES: 'en-GB, fr-FR' }).storeLocales).toEqual(['en-GB', 'fr-FR']);
  });
  it('reads CORS origins per surface, with development defaults and none in production', () => {
    expect(loadConfig({ ...secrets, STORE_CORS: 'https://shop.example/, https://m.shop.example' }).cors.store).toEqual([
      'https://shop.example',
      'https://m.shop.example',
    ]);
    expect(loadConfig(secrets).cors.store).toEqual(['http://localhost:8000']);
    expect(loadConfig({ ...secrets, NODE_ENV: 'production' }).cors).toEqual({ store: [], admin: [], auth: [] });
  });
  it('requires the secrets in production and names the bad variables', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: '/tmp/emporium-config-test' })).toThrow(
      /JWT_SECRET, COOKIE_SECRET, ENCRYPTION_KEY/,
    );
    expect(() => loadConfig({ ...secrets, JWT_EXPIRES_IN: 'soon' })).toThrow(/JWT_EXPIRES_IN/);
    expect(() => loadConfig({ ...secrets, PORT: 'abc' })).toThrow(/PORT/);
  });
  it('refuses a JWT_SECRET under 32 bytes in production', () => {
    expect(() => loadConfig({ ...secrets, NODE_ENV: 'production', JWT_SECRET: 'short-secret' })).toThrow(
      /JWT_SECRET must be at least 32 bytes/,
    );
    expect(() => loadConfig({ ...secrets, NODE_ENV: 'production', JWT_SECRET: 'é'.repeat(16) })).not.toThrow();
    expect(loadConfig({ ...secrets, JWT_SECRET: 'short-secret' }).jwtSecret).toBe('short-secret');
  });
  it('sizes the embedded database for a small shop unless told otherwise, and logs no request lines by default', () => {
    expect(loadConfig(secrets).pgliteSharedBuffers).toBe('8MB');
    expect(loadConfig({ ...secrets, PGLITE_SHARED_BUFFERS: '64MB' }).pgliteSharedBuffers).toBe('64MB');
    for (const bad of ['64', '64 MB', '0MB', '1TB', '-8MB'])
      expect(() => loadConfig({ ...secrets, PGLITE_SHARED_BUFFERS: bad })).toThrow(/PGLITE_SHARED_BUFFERS/);
    expect(loadConfig(secrets).logRequests).toBe(false);
    expect(loadConfig({ ...secrets, LOG_REQUESTS: 'true' }).logRequests).toBe(true);
  });
  it('logs JSON lines for a collector and readable lines at a terminal unless LOG_FORMAT says otherwise', () => {
    expect(loadConfig(secrets, false).logFormat).toBe('json');
    expect(loadConfig(secrets, true).logFormat).toBe('pretty');
    expect(loadConfig({ ...secrets, LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ ...secrets, LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ ...secrets, LOG_FORMAT: 'text' })).toThrow(/LOG_FORMAT must be json or pretty/);
  });
  it('reads TRUST_PROXY as a number of proxies or their addresses, and refuses true in production', () => {
    const trustProxy = (value: string, env: Record<string, string> = {}) =>
      loadConfig({ ...secrets, ...env, TRUST_PROXY: value }).trustProxy;
    expect(loadConfig(secrets).trustProxy).toBe(false);
    expect(trustProxy('false')).toBe(false);
    expect(trustProxy('0')).toBe(false);
    expect(trustProxy('true')).toBe(true);
    expect(trustProxy('2', { NODE_ENV: 'production' })).toBe(2);
    expect(trustProxy(' 10.0.0.0/8, 127.0.0.1,loopback ')).toEqual(['10.0.0.0/8', '127.0.0.1', 'loopback']);
    expect(trustProxy('10.0.0.0/255.0.0.0,::1,fd00::/8')).toEqual(['10.0.0.0/255.0.0.0', '::1', 'fd00::/8']);
    const bad = ['9'.repeat(20), ...'yes 1.5 -1 1e3 10.1/16 10.0.0.0/33 10.0.0.1,nope 10.0.0.1, ,'.split(' ')];
    for (const value of bad) expect(() => trustProxy(value), value).toThrow(/^TRUST_PROXY must be/);
    expect(() => trustProxy('true', { NODE_ENV: 'production' })).toThrow(/TRUST_PROXY=true .*production/);
  });
});
