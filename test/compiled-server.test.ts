import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminToken, eventually, type ServerProcess, startServer } from './processes.ts';

/**
 * `npm start` runs the server bundled by scripts/build-server.mjs: what src/ finds next
 * to itself at run time (migrations, package.json, the admin panel, PGlite's wasm, the docs UI's
 * files, native addons) must still be found from dist/, and a first start on an empty DATA_DIR
 * copies the database template the build made.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'pipe' });
  dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-compiled-'));
}, 180_000);

afterAll(async () => {
  server?.signal('SIGTERM');
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' });

describe('the compiled server (npm start)', () => {
  it('creates the database from the template, migrates, bootstraps and serves every surface', async () => {
    expect(existsSync(path.join(ROOT, 'dist', 'pglite-template', 'PG_VERSION'))).toBe(true);
    server = await startServer('compiled', env(), { compiled: true });
    expect(existsSync(path.join(dataDir, 'pglite', 'EMPORIUM_TEMPLATE'))).toBe(true); // copied, not initdb
    // Printed right after listen: /health can answer before the parent has read that line.
    const running = server;
    const key = await eventually(
      async () => /Publishable key \(x-publishable-api-key\): (pk_\w+)/.exec(running.logs.join('\n'))?.[1],
      10_000,
      'the publishable key in the start-up log',
    );
    const token = await adminToken(server); // argon2 (a native addon) verifies the bootstrap admin

    const created = await server.call(
      'POST',
      '/admin/products',
      { title: 'Linen shirt', status: 'published', options: [{ title: 'Size', values: ['S'] }] },
      { token },
    );
    expect(created.status).toBe(200);
    // `q` uses the trigram index: the pg_trgm extension must load from PGlite's own files.
    const search = await server.call('GET', '/admin/products?q=linen', undefined, { token });
    expect(search.body.products.map((p: { title: string }) => p.title)).toEqual(['Linen shirt']);
    const store = await server.call('GET', '/store/products?limit=5', undefined, { key });
    expect(store.status).toBe(200);

    const openapi = await server.call('GET', '/openapi.json');
    expect(openapi.body.info.version).toMatch(/^\d+\.\d+\.\d+/);
    const docs = await fetch(`${server.url}/docs/`);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    const docsScript = await fetch(`${server.url}/docs/static/swagger-ui-bundle.js`);
    expect(docsScript.status).toBe(200);
    // A new build has no code cache yet: this start compiled the bundle and saved V8's code.
    expect(server.logs.find((l) => l.includes('listening on'))).toContain('"codeCache":"none"');
    expect(readdirSync(path.join(ROOT, 'dist', '.code-cache'))).toHaveLength(1);
  });

  it('opens the same data dir again after a clean stop', async () => {
    server!.signal('SIGTERM');
    expect(await server!.exited).toBe(0);
    server = await startServer('compiled again', env(), { compiled: true });
    const login = await server.call('POST', '/auth/user/emailpass', ADMIN);
    expect(login.status).toBe(200);
    const token = login.body.token;
    const list = await server.call('GET', '/admin/products', undefined, { token });
    expect(list.body.count).toBe(1);
    // …which this start took instead of compiling (platform/code-cache.ts).
    expect(server.logs.find((l) => l.includes('listening on'))).toContain('"codeCache":"accepted"');
  });

  it('writes readable log lines with LOG_FORMAT=pretty (the default at a terminal), JSON lines otherwise', async () => {
    server!.signal('SIGTERM');
    expect(await server!.exited).toBe(0);
    server = await startServer('compiled, pretty logs', { ...env(), LOG_FORMAT: 'pretty' }, { compiled: true });
    const running = server;
    const listening = await eventually(
      async () => running.logs.find((l) => l.includes('listening on')),
      10_000,
      'the listening line',
    );
    expect(listening).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: Emporium shop listening on http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(running.logs.filter((l) => l.startsWith('{'))).toEqual([]);
  });
});
