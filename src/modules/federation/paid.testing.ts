import { expect } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app.ts';
import { LicenseCallbackSender } from '../marketplace/licenses/callback-sender.ts';
import { callbackSignature } from '../marketplace/licenses/callback-signature.ts';
import { ensureSigningKey } from '../marketplace/keys/signing-keys.ts';
import { packExample } from '../marketplace/marketplace.testing.ts';
import { freePort, pluginSlug, shopEnv, startMarketplace, type TestMarketplace } from '../plugins/plugins.testing.ts';
import { runLicenseChecks } from './license-check.ts';

/** Test factories for the shop's paid-plugin flow against a real marketplace (tests only). */

const MARKET_KEY = 'marketplace-encryption-key-0123456789';

export interface PaidWorld {
  m: TestMarketplace;
  t: TestApp;
  /** The marketplace's license-issued sender, driven by `drain()`. */
  sender: LicenseCallbackSender;
  close(): Promise<void>;
}

/** A marketplace and a federated shop that listens on 127.0.0.1 (its PUBLIC_URL), so callbacks reach it. */
export async function startPaidWorld(marketEnv: Record<string, string> = {}): Promise<PaidWorld> {
  const m = await startMarketplace(marketEnv);
  const port = await freePort();
  const t = await startTestApp({ env: shopEnv(m, { PUBLIC_URL: `http://127.0.0.1:${port}` }) });
  await t.app.listen({ host: '127.0.0.1', port });
  const sender = new LicenseCallbackSender({
    database: m.database,
    clock: m.clock,
    log: m.app.log,
    encryptionKey: MARKET_KEY,
    blockPrivate: false,
  });
  return {
    m,
    t,
    sender,
    close: async () => {
      await sender.stop();
      await t.close();
      await m.close();
    },
  };
}

/** Publishes the paid example (loyalty-points) under a fresh id; returns its marketplace and manifest ids. */
export async function publishPaidPlugin(m: TestMarketplace, price = '29.90') {
  const id = pluginSlug('paid');
  const item = await m.publish(await packExample('loyalty-points', { id }), { price_eur: price });
  return { id, marketplaceId: item.marketplace_id as string };
}

/** An admin token fresh on the shop's fake clock (tests move it by days). */
export async function shopToken(t: TestApp): Promise<string> {
  return (await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN })).json().token;
}

export async function shopAdmin(t: TestApp, method: string, url: string, body?: Record<string, unknown>) {
  return t.admin(method, url, body, { token: await shopToken(t) });
}

/** The shop's plugin installed from marketplace item `mid`, as the shop's admin lists it. */
export async function shopPluginOf(t: TestApp, mid: string) {
  return (
    (await shopAdmin(t, 'GET', '/admin/plugins')).json().plugins as {
      id: string;
      marketplace_id: string;
      status: string;
      error: string | null;
      licensed: boolean;
      manifest_id: string;
    }[]
  ).find((p) => p.marketplace_id === mid);
}

/** One run of the shop's licence checks, its plugins settled after. */
export async function checkLicenses(t: TestApp): Promise<void> {
  await runLicenseChecks(t.ctx, t.config, t.app.plugins);
  await t.app.plugins.settled();
}

/** The shop's admin checkout, then the test provider's pay button on the marketplace. */
export async function buyThroughShop(w: PaidWorld, marketplaceId: string, opts: { pay?: boolean } = {}) {
  const res = await shopAdmin(w.t, 'POST', '/admin/marketplace/checkout', {
    marketplace_id: marketplaceId,
    version: '1.0.0',
    customer_email: 'operator@shop.example',
  });
  expect(res.statusCode, res.body).toBe(200);
  const session = res.json() as { id: string; url: string; expires_at: string };
  if (opts.pay !== false) await payOnMarketplace(w.m, session.id);
  return session;
}

export async function payOnMarketplace(m: TestMarketplace, id: string) {
  const res = await m.app.inject({
    method: 'POST',
    url: `/store/marketplace/checkout/test/${id}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The license key of a paid session, read from the marketplace's pull path. */
export async function licenseKeyOf(m: TestMarketplace, checkoutId: string): Promise<string> {
  return (await m.app.inject({ method: 'GET', url: `/store/marketplace/checkout/session/${checkoutId}` })).json()
    .license_key;
}

/** The marketplace's license row (vendor admin view) for a key. */
export async function licenseRow(m: TestMarketplace, marketplaceId: string, key: string) {
  const token = (await m.app.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN })).json().token;
  const res = await m.app.inject({
    method: 'GET',
    url: `/admin/marketplace/licenses?marketplace_id=${encodeURIComponent(marketplaceId)}`,
    headers: { authorization: `Bearer ${token}` },
  });
  const row = res.json().licenses.find((l: { key: string }) => l.key === key);
  return { id: row.id as string, token };
}

/** A license-issued request signed with the marketplace's real key at `at` (its clock by default). */
export async function signedCallback(m: TestMarketplace, body: string, at = m.clock.now()) {
  const key = await ensureSigningKey({ db: m.database.db, clock: m.clock, log: m.app.log }, MARKET_KEY);
  return {
    'content-type': 'application/json',
    'x-service-signature': callbackSignature(key, at, body),
    'x-service-delivery-id': `mcb_test_${Math.random()}`,
  };
}
