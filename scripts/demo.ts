/**
 * `npm run demo`: a marketplace (port 9100) seeded with the example plugins and a shop (port 9000)
 * federated to it, each a child process on its own embedded database under ./.demo. Ctrl-C stops both.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packPackage } from '../src/plugin-package/pack-package.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const MARKET = {
  port: 9100,
  url: `http://${HOST}:9100`,
  email: 'vendor@marketplace.demo',
  password: 'demo-market-password',
};
const SHOP = { port: 9000, url: `http://${HOST}:9000`, email: 'admin@shop.demo', password: 'demo-shop-password' };
/** The examples and their prices (0 = free). */
const EXAMPLES: [string, string][] = [
  ['hello-widget', '0'],
  ['order-notes', '0'],
  ['loyalty-points', '19.90'],
];

// Medusa's storefront reads whole currency units (docs/money.md).
const SHOP_ENV = { AMOUNT_UNITS: 'major' };

const children: ChildProcess[] = [];

function start(name: string, env: Record<string, string>): ChildProcess {
  const dataDir = path.join(ROOT, '.demo', name);
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST,
      LOG_LEVEL: 'warn',
      PLUGINS_DIR: path.join(dataDir, 'plugins'),
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`${name} exited (${code}); stopping the demo`);
      stop(1);
    }
  });
  children.push(child);
  return child;
}

let stopping = false;
function stop(code = 0): void {
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());

async function waitHealthy(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not become healthy within 60 s`);
}

async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/auth/user/emailpass`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login to ${url} failed: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Publishes an example; a version already there (a second demo run) is fine. */
async function publishExample(token: string, example: string, price: string): Promise<string> {
  const bytes = await packPackage(path.join(ROOT, 'examples/plugins', example));
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'examples/plugins', example, 'manifest.json'), 'utf8')) as {
    id: string;
    vendor: string;
  };
  const form = new FormData();
  form.append('price_eur', price);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/gzip' }), `${example}.tgz`);
  const res = await fetch(`${MARKET.url}/admin/marketplace/items`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok && res.status !== 409) throw new Error(`publishing ${example} failed: ${await res.text()}`);
  if (res.ok) {
    // An upload that failed an automatic check waits in review instead of reaching the feed.
    const { item } = (await res.json()) as { item: { versions: { status: string; review_reason: string | null }[] } };
    const waiting = item.versions.find((v) => v.status !== 'approved');
    if (waiting) console.warn(`${example} is not listed (${waiting.status}): ${waiting.review_reason ?? ''}`);
  }
  return `@${manifest.vendor}/${manifest.id}`;
}

/** The shop's publishable key, for the storefront's environment. */
async function shopKey(): Promise<string> {
  const token = await login(SHOP.url, SHOP.email, SHOP.password);
  const keys = await fetch(`${SHOP.url}/admin/publishable-api-keys`, {
    headers: { authorization: `Bearer ${token}` },
  }).then((r) => r.json() as Promise<{ publishable_api_keys: { token: string; revoked_at: string | null }[] }>);
  return keys.publishable_api_keys.find((k) => !k.revoked_at)?.token ?? '<publishable key: Settings → API keys>';
}

async function main(): Promise<void> {
  start('marketplace', {
    SERVICE_ROLE: 'marketplace',
    PORT: String(MARKET.port),
    PUBLIC_URL: MARKET.url,
    ADMIN_EMAIL: MARKET.email,
    ADMIN_PASSWORD: MARKET.password,
  });
  await waitHealthy(MARKET.url);
  const marketToken = await login(MARKET.url, MARKET.email, MARKET.password);
  const published = [];
  for (const [example, price] of EXAMPLES)
    published.push({ id: await publishExample(marketToken, example, price), price });
  const keys = await fetch(`${MARKET.url}/admin/publishable-api-keys`, {
    headers: { authorization: `Bearer ${marketToken}` },
  }).then((r) => r.json() as Promise<{ publishable_api_keys: { token: string; revoked_at: string | null }[] }>);
  const pk = keys.publishable_api_keys.find((k) => !k.revoked_at)?.token;
  if (!pk) throw new Error('the marketplace has no publishable key');

  // The catalog of Medusa's starter seed, before the shop opens its embedded database (one process at a time).
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'seed'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: path.join(ROOT, '.demo', 'shop'), ...SHOP_ENV, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (seeded.status !== 0) throw new Error('seeding the shop failed');

  start('shop', {
    ...SHOP_ENV,
    PORT: String(SHOP.port),
    PUBLIC_URL: SHOP.url,
    ADMIN_EMAIL: SHOP.email,
    ADMIN_PASSWORD: SHOP.password,
    SERVICE_FEDERATION_URL: MARKET.url,
    SERVICE_FEDERATION_PK: pk,
  });
  await waitHealthy(SHOP.url);

  const paid = published.find((p) => p.price !== '0')!;
  const free = published.find((p) => p.price === '0')!;
  console.log(`
Emporium demo is running (Ctrl-C stops both).

  Shop admin panel         ${SHOP.url}/app     ${SHOP.email} / ${SHOP.password}
  Marketplace admin panel  ${MARKET.url}/app     ${MARKET.email} / ${MARKET.password}
  In the shop panel: Marketplace → Install a free plugin (its widget appears on Home), or Buy the paid one.

  Marketplace  ${MARKET.url}   admin ${MARKET.email} / ${MARKET.password}   docs ${MARKET.url}/docs
  Shop         ${SHOP.url}   admin ${SHOP.email} / ${SHOP.password}   docs ${SHOP.url}/docs
  Storefront   Medusa's Next.js starter: MEDUSA_BACKEND_URL=${SHOP.url} NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY=${await shopKey()} NEXT_PUBLIC_DEFAULT_REGION=de
               (the shop is seeded: region Europe, standard and express shipping, four products; it speaks AMOUNT_UNITS=major)
  Published    ${published.map((p) => `${p.id} (${p.price === '0' ? 'free' : `€${p.price}`})`).join(', ')}

Or with curl (shop admin token first):
  TOKEN=$(curl -s ${SHOP.url}/auth/user/emailpass -H 'content-type: application/json' -d '{"email":"${SHOP.email}","password":"${SHOP.password}"}' | sed 's/.*"token":"\\([^"]*\\)".*/\\1/')
  curl -s ${SHOP.url}/admin/marketplace/feed -H "authorization: Bearer $TOKEN"
1. Install a free plugin:
  curl -s ${SHOP.url}/admin/plugins/install -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"marketplace_id":"${free.id}","version":"1.0.0","license_key":null}'
  curl -s ${SHOP.url}/admin/plugins -H "authorization: Bearer $TOKEN"      # status: installed
2. Buy the paid one through the test provider:
  curl -s ${SHOP.url}/admin/marketplace/checkout -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"marketplace_id":"${paid.id}","version":"1.0.0","customer_email":"${SHOP.email}"}'
  open the returned "url" in a browser and press Pay: the marketplace calls the shop back and it installs with its license
  (or poll: curl -s ${SHOP.url}/admin/marketplace/checkout/<id> -H "authorization: Bearer $TOKEN")
`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  stop(1);
});
