import { createHmac, generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { rows } from '../../platform/db/database.ts';
import { schemaNameOf } from './raw-db.ts';
import {
  installAndWait,
  packPlugin,
  pluginSlug,
  publishProbe,
  startShopInstance,
  type TestMarketplace,
  startMarketplaceAndShop,
} from './plugins.testing.ts';

let m: TestMarketplace;
let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ m, t, env } = await startMarketplaceAndShop());
  // The first verified install pins the marketplace's key.
  expect((await installAndWait(t, (await publishProbe(m)).marketplaceId)).status).toBe('installed');
});
afterAll(() => closeAll(t, m));

/** Runs SQL on the marketplace's database (the attacker's position: between publish and download). */
const market = (query: ReturnType<typeof sql>) => rows<Record<string, unknown>>(m.database.db, query);
const versionOf = (marketplaceId: string) =>
  sql`(select v.id from marketplace_versions v join marketplace_items i on i.id = v.item_id where i.marketplace_id = ${marketplaceId})`;

/** Nothing of a refused plugin ran: no schema, no stored artifact, no route. */
async function expectNothingRan(manifestId: string) {
  const schemas = await rows(
    t.database.db,
    sql`select 1 from information_schema.schemata where schema_name = ${schemaNameOf(manifestId)}`,
  );
  expect(schemas).toEqual([]);
  expect((await t.admin('GET', `/admin/plugins/${manifestId}/seen`)).statusCode).toBe(404);
}

describe('verification before anything runs', () => {
  it('fails a tampered artifact (sha256 mismatch)', async () => {
    const { id, marketplaceId } = await publishProbe(m);
    const [{ bytes }] = await market(
      sql`select bytes from marketplace_artifacts where version_id = ${versionOf(marketplaceId)}`,
    );
    const tampered = Buffer.from(bytes as Uint8Array);
    tampered[tampered.length - 10] ^= 0xff; // same size, different content
    await market(
      sql`update marketplace_artifacts set bytes = ${tampered} where version_id = ${versionOf(marketplaceId)}`,
    );
    const plugin = await installAndWait(t, marketplaceId);
    expect(plugin.status).toBe('failed');
    expect(plugin.error).toMatch(
      /^sha256 mismatch: the marketplace announced [0-9a-f]{64}, the download is [0-9a-f]{64}$/,
    );
    await expectNothingRan(id);
    expect(
      await rows(
        t.database.db,
        sql`select 1 from plugin_artifacts where sha256 not in (select artifact_sha256 from plugins where artifact_sha256 is not null)`,
      ),
    ).toEqual([]);
  });

  it('fails an artifact whose size differs from the descriptor', async () => {
    const { id, marketplaceId } = await publishProbe(m);
    await market(sql`update marketplace_versions set size = size + 1 where id = ${versionOf(marketplaceId)}`);
    const plugin = await installAndWait(t, marketplaceId);
    expect(plugin.status).toBe('failed');
    expect(plugin.error).toMatch(/^Download size mismatch: the marketplace announced \d+ bytes, received \d+$/);
    await expectNothingRan(id);
  });

  it('fails a wrong signature', async () => {
    const other = await publishProbe(m);
    const { id, marketplaceId } = await publishProbe(m);
    await market(
      sql`update marketplace_versions set signature = (select signature from marketplace_versions where id = ${versionOf(other.marketplaceId)}) where id = ${versionOf(marketplaceId)}`,
    );
    const plugin = await installAndWait(t, marketplaceId);
    expect(plugin.status).toBe('failed');
    expect(plugin.error).toMatch(
      new RegExp(
        `^Signature check failed: ${marketplaceId}@1\\.0\\.0 is not signed by the marketplace key [0-9a-f]{16}$`,
      ),
    );
    await expectNothingRan(id);
  });

  it('fails an expired download URL', async () => {
    const { id, marketplaceId } = await publishProbe(m);
    m.afterDescriptor = () => m.clock.advance(16 * 60 * 1000);
    try {
      const plugin = await installAndWait(t, marketplaceId);
      expect(plugin.status).toBe('failed');
      expect(plugin.error).toBe(
        'Marketplace refused the download (403): Download link has expired; request a new one from the download endpoint',
      );
      await expectNothingRan(id);
    } finally {
      m.afterDescriptor = null;
    }
  });

  it('fails closed when the marketplace signs with a key other than the pinned one, until the operator re-pins', async () => {
    const [pinned] = await market(sql`select key_id from marketplace_signing_keys where active`);
    await market(sql`update marketplace_signing_keys set active = false`); // the next publish generates a new key
    const { id, marketplaceId } = await publishProbe(m);
    const [fresh] = await market(sql`select key_id from marketplace_signing_keys where active`);
    expect(fresh.key_id).not.toBe(pinned.key_id);
    const plugin = await installAndWait(t, marketplaceId);
    expect(plugin.status).toBe('failed');
    expect(plugin.error).toBe(
      `Marketplace signing key changed: the artifact is signed with key ${fresh.key_id}, not the trusted key ${pinned.key_id}. ` +
        'If the marketplace rotated its key on purpose, delete the setting federation.pinned_keys to pin the new key',
    );
    await expectNothingRan(id);

    expect((await t.admin('DELETE', '/admin/settings/federation.pinned_keys')).statusCode).toBe(200);
    const retried = await installAndWait(t, marketplaceId);
    expect(retried).toMatchObject({ id: plugin.id, status: 'installed', error: null });
  });

  it('trusts only SERVICE_FEDERATION_SIGNING_KEY when it is set', async () => {
    const { marketplaceId } = await publishProbe(m);
    const stranger = Buffer.from(
      generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!,
      'base64url',
    ).toString('base64');
    const wrong = await startShopInstance(t, { ...env, SERVICE_FEDERATION_SIGNING_KEY: stranger });
    try {
      const res = await wrong.app.inject({
        method: 'POST',
        url: '/admin/plugins/install',
        headers: { authorization: `Bearer ${t.adminToken}` },
        payload: { marketplace_id: marketplaceId, version: '1.0.0', license_key: null },
      });
      expect(res.statusCode).toBe(202);
      await wrong.app.plugins.settled();
      const plugin = (await t.admin('GET', `/admin/plugins/${res.json().plugin.id}`)).json().plugin;
      expect(plugin.status).toBe('failed');
      expect(plugin.error).toContain('Marketplace signing key changed');
      expect(plugin.error).toContain('set SERVICE_FEDERATION_SIGNING_KEY to the new key');
    } finally {
      await wrong.close();
    }
    const [key] = await market(sql`select public_key from marketplace_signing_keys where active`);
    const right = await startShopInstance(t, { ...env, SERVICE_FEDERATION_SIGNING_KEY: key.public_key as string });
    try {
      await right.app.inject({
        method: 'POST',
        url: '/admin/plugins/install',
        headers: { authorization: `Bearer ${t.adminToken}` },
        payload: { marketplace_id: marketplaceId, version: '1.0.0', license_key: null },
      });
      await right.app.plugins.settled();
      expect(
        (await t.admin('GET', '/admin/plugins?limit=1000'))
          .json()
          .plugins.find((p: { marketplace_id: string }) => p.marketplace_id === marketplaceId).status,
      ).toBe('installed');
    } finally {
      await right.close();
    }
  });

  it('sends a paid download only license key and the instance token (HMAC of the marketplace URL)', async () => {
    const id = pluginSlug('paid');
    const item = await m.publish(
      await packPlugin({ id, server: 's.js' }, { 's.js': 'export default { register() {} };' }),
      { price_eur: '9' },
    );
    const seen = m.requests.length;
    const plugin = await installAndWait(t, item.marketplace_id, '1.0.0', 'lic_NOTAREALKEY0000000000000000');
    expect(plugin).toMatchObject({
      status: 'failed',
      licensed: true,
      error: `Marketplace refused /store/marketplace/download/${item.marketplace_id}/1.0.0 (403): A valid license for this instance is required`,
    });
    const download = m.requests.slice(seen).find((r) => r.url.startsWith('/store/marketplace/download/'))!;
    const query = new URL(download.url, m.url).searchParams;
    const [{ secret_encrypted }] = await rows<{ secret_encrypted: string }>(
      t.database.db,
      sql`select secret_encrypted from instance_identity`,
    );
    const expected = createHmac('sha256', decryptSecret(t.config.encryptionKey, secret_encrypted))
      .update(m.url)
      .digest('hex');
    expect(Object.fromEntries(query)).toEqual({
      license_key: 'lic_NOTAREALKEY0000000000000000',
      instance_id: expected,
    });
    expect(download.headers['x-publishable-api-key']).toBe('pk_test_tenant');
    expect(download.headers.cookie).toBeUndefined();
    expect(download.headers.authorization).toBeUndefined();
    expect((await t.admin('GET', `/admin/plugins/${plugin.id}`)).body).not.toContain('NOTAREALKEY');
  });
});
