import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../test/app.ts';
import {
  installAndWait,
  publishProbe,
  shopEnv,
  startShopInstance,
  type ShopInstance,
  type TestMarketplace,
  startMarketplaceAndShop,
} from '../modules/plugins/plugins.testing.ts';
import { decryptSecret, encryptionKeyId, registerPreviousEncryptionKey, secretKeyId } from './crypto.ts';
import { rows } from './db/database.ts';
import { ENCRYPTED_COLUMNS, rotateEncryptionKey } from './secret-rotation.ts';

const OLD = 'test-encryption-key-0123456789abcdef'; // testConfig's ENCRYPTION_KEY
const NEW = 'rotated-encryption-key-fedcba9876543210';

let m: TestMarketplace;
let t: TestApp;
let env: Record<string, string>;
const instances: ShopInstance[] = [];
beforeAll(async () => {
  ({ m, t, env } = await startMarketplaceAndShop());
});
afterAll(() => closeAll(...instances, t, m));

/** Another instance on the same database, started as main.ts does, with its own keys. */
async function instance(keys: Record<string, string>): Promise<ShopInstance> {
  const i = await startShopInstance(t, { ...env, DATA_DIR: shopEnv(m).DATA_DIR, ...keys });
  instances.push(i);
  await i.app.plugins.start();
  return i;
}

const pluginConfig = async (app: ShopInstance['app'], manifestId: string) =>
  (
    await app.inject({
      method: 'GET',
      url: `/store/plugins/${manifestId}/config`,
      headers: { 'x-publishable-api-key': t.publishableKey },
    })
  ).json().config;

const storedSecrets = async () => ({
  config: (await rows<{ config: unknown }>(t.database.db, sql`select config from plugins order by id`)).map((r) =>
    JSON.stringify(r.config),
  ),
  webhooks: (
    await rows<{ s: string }>(t.database.db, sql`select secret_encrypted as s from webhook_subscriptions order by id`)
  ).map((r) => r.s),
});

describe('encryption key rotation', () => {
  it('keeps a stored plugin secret readable before, during and after; refuses a wrong key without changing anything', async () => {
    const probe = await publishProbe(m);
    const plugin = await installAndWait(t, probe.marketplaceId);
    expect(plugin.status).toBe('installed');
    const configured = await t.admin('POST', `/admin/plugins/${plugin.id}/configure`, {
      config: { token: 'tok_live_rotate_me_42', greeting: 'Hej' },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const hook = await t.admin('POST', '/admin/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] });
    expect(hook.statusCode, hook.body).toBe(200);
    const hookSecret = hook.json().webhook.signing_secret as string;
    const expected = { token: 'tok_live_rotate_me_42', greeting: 'Hej' };

    // Before: written under the old key, with its key id.
    const before = await storedSecrets();
    expect(before.config.join()).toContain(`"v2.${encryptionKeyId(OLD)}.`);
    expect(before.webhooks.map(secretKeyId)).toEqual([encryptionKeyId(OLD)]);
    expect(await pluginConfig(t.app, probe.id)).toEqual(expected);

    // During: a new instance writes under the new key and reads under both.
    const during = await instance({ ENCRYPTION_KEY: NEW, ENCRYPTION_KEY_PREVIOUS: OLD });
    expect(await pluginConfig(during.app, probe.id)).toEqual(expected);
    expect(await pluginConfig(t.app, probe.id)).toEqual(expected); // the old instance still serves

    // A wrong previous key: refused with the row named, nothing changed (one transaction).
    const third = 'a-third-key-nobody-used-0000000';
    registerPreviousEncryptionKey(third, 'wrong-key-000000000000'); // what loadConfig does with the variables
    await expect(rotateEncryptionKey(t.database.db, third)).rejects.toThrow(
      /webhook_subscriptions\.secret_encrypted of id .*key id .*ENCRYPTION_KEY_PREVIOUS.*Nothing was changed/,
    );
    expect(await storedSecrets()).toEqual(before);

    // The rotation, while both instances serve.
    const report = await rotateEncryptionKey(t.database.db, NEW);
    expect(report.keyId).toBe(encryptionKeyId(NEW));
    const counts = Object.fromEntries(report.columns.map((c) => [c.name, c.rotated]));
    expect(counts).toMatchObject({ 'webhook_subscriptions.secret_encrypted': 1, 'plugins.config': 1 });
    const after = await storedSecrets();
    expect(after.config.join()).toContain(`"v2.${encryptionKeyId(NEW)}.`);
    expect(after.config.join()).not.toContain(encryptionKeyId(OLD));
    expect(after.webhooks.map(secretKeyId)).toEqual([encryptionKeyId(NEW)]);
    expect(await pluginConfig(during.app, probe.id)).toEqual(expected);

    // After: an instance with the new key alone (previous removed) reads everything.
    const only = await instance({ ENCRYPTION_KEY: NEW });
    expect(await pluginConfig(only.app, probe.id)).toEqual(expected);
    expect(decryptSecret(NEW, after.webhooks[0])).toBe(hookSecret);
    expect(() => decryptSecret(OLD, after.webhooks[0])).toThrow(/key id .* \(wrong key\)/);

    // A second run finds nothing to do.
    const again = await rotateEncryptionKey(t.database.db, NEW);
    expect(again.columns.every((c) => c.rotated === 0)).toBe(true);
    expect(await storedSecrets()).toEqual(after);
  });

  it('lists every encrypted column of the schema', async () => {
    const cols = await rows<{ table_name: string; column_name: string }>(
      t.database.db,
      sql`select table_name, column_name from information_schema.columns
          where table_schema = 'public' and (column_name like '%encrypted%' or column_name in ('license_key', 'secret_data'))`,
    );
    const listed = new Set(ENCRYPTED_COLUMNS.map((c) => `${c.table}.${c.column}`));
    // The marketplace's license_key is the license it sold (looked up, never encrypted).
    const missing = cols
      .map((c) => `${c.table_name}.${c.column_name}`)
      .filter((c) => !listed.has(c) && c !== 'marketplace_licenses.license_key');
    expect(missing).toEqual([]);
  });
});
