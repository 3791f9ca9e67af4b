import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import { readPackage } from '../../../plugin-package/read-package.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
});
afterAll(() => t.close());

const get = (url: string) => t.inject({ method: 'GET', url });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The signed URL without its origin, for inject. */
const local = (url: string) => {
  expect(url.startsWith('http://market.test/store/marketplace/artifacts/')).toBe(true);
  return url.slice('http://market.test'.length);
};

async function publishExample(example: string, manifest: Record<string, unknown>, fields: Record<string, string> = {}) {
  const bytes = await packExample(example, manifest);
  const res = await publish(t, bytes, fields);
  expect(res.statusCode, res.body).toBe(200);
  return { item: res.json().item, bytes };
}

describe('download descriptor and artifact', () => {
  it('serves a signed URL whose bytes match the sha256 and the Ed25519 signature', async () => {
    const id = uniqueSlug('dl');
    const { item, bytes } = await publishExample('order-notes', { id });
    const mid = item.marketplace_id;

    const feed = (await get(`/store/marketplace/feed?search=${id}`)).json().products[0];
    const res = await get(feed.download_url);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    const expires = Math.floor(t.clock.now().getTime() / 1000) + 15 * 60;
    expect(d).toEqual({
      url: expect.stringMatching(
        new RegExp(
          `^http://market\\.test/store/marketplace/artifacts/${mid}/1\\.0\\.0\\?expires=${expires}&signature=[0-9a-f]{64}$`,
        ),
      ),
      expires_at: new Date(expires * 1000).toISOString(),
      sha256: sha(bytes),
      size: bytes.length,
      signature: item.versions[0].signature,
      key_id: item.versions[0].key_id,
      log: expect.objectContaining({
        entry: expect.objectContaining({ marketplace_id: mid, version: '1.0.0', sha256: sha(bytes) }),
        sth: expect.objectContaining({ tree_size: expect.any(Number) }),
      }),
    });

    const artifact = await get(local(d.url));
    expect(artifact.statusCode).toBe(200);
    expect(artifact.headers['content-type']).toBe('application/gzip');
    expect(Number(artifact.headers['content-length'])).toBe(d.size);
    expect(artifact.headers['content-disposition']).toBe(`attachment; filename="acme-${id}-1.0.0.tgz"`);
    const downloaded = artifact.rawPayload;
    expect(downloaded.equals(bytes)).toBe(true);
    expect(sha(downloaded)).toBe(d.sha256);

    // The shop's check: the marketplace's published key over `<marketplace_id>@<version>:<sha256>`.
    const { keys } = (await get('/store/marketplace/keys')).json();
    const key = keys.find((k: { key_id: string }) => k.key_id === d.key_id);
    const publicKey = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key.public_key, 'base64').toString('base64url') },
      format: 'jwk',
    });
    const text = `${mid}@1.0.0:${sha(downloaded)}`;
    expect(verify(null, Buffer.from(text), publicKey, Buffer.from(d.signature, 'base64'))).toBe(true);
    expect(
      verify(null, Buffer.from(`${mid}@1.0.1:${sha(downloaded)}`), publicKey, Buffer.from(d.signature, 'base64')),
    ).toBe(false);
    expect((await readPackage(downloaded)).manifest.id).toBe(id);
  });

  it('accepts the id with an encoded slash and serves each version its own bytes', async () => {
    const id = uniqueSlug('enc');
    const v1 = await publishExample('hello-widget', { id });
    const v2 = await publishExample('hello-widget', { id, version: '1.1.0' });
    const d1 = (await get(`/store/marketplace/download/@acme%2F${id}/1.0.0`)).json();
    const d2 = (await get(`/store/marketplace/download/%40acme%2F${id}/1.1.0`)).json();
    expect(d1.sha256).toBe(sha(v1.bytes));
    expect(d2.sha256).toBe(sha(v2.bytes));
    expect((await get(local(d2.url))).rawPayload.equals(v2.bytes)).toBe(true);
  });

  it('refuses an expired URL (after 15 minutes) and a tampered one with 403', async () => {
    const { item } = await publishExample('hello-widget', { id: uniqueSlug('exp') });
    const d = (await get(`/store/marketplace/download/${item.marketplace_id}/1.0.0`)).json();
    const path = local(d.url);
    const url = new URL(d.url);
    const sig = url.searchParams.get('signature')!;
    const expires = Number(url.searchParams.get('expires'));
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;
    const tampered = [
      path.replace(`signature=${sig}`, `signature=${flipped}`),
      path.replace(`expires=${expires}`, `expires=${expires + 3600}`),
      path.replace('/1.0.0?', '/1.0.1?'),
      path.replace(`&signature=${sig}`, ''),
      path.replace(`expires=${expires}&`, ''),
      path.replace(`signature=${sig}`, 'signature=zz'),
    ];
    for (const p of tampered) {
      const res = await get(p);
      expect(res.statusCode, p).toBe(403);
      expect(res.json()).toEqual({
        type: 'forbidden',
        code: 'marketplace_download_link_invalid',
        message: 'Download link is invalid',
      });
    }

    t.clock.advance(14 * 60 * 1000);
    expect((await get(path)).statusCode).toBe(200);
    t.clock.advance(2 * 60 * 1000); // 16 minutes after it was issued
    const expired = await get(path);
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toEqual({
      type: 'forbidden',
      code: 'marketplace_download_link_expired',
      message: 'Download link has expired; request a new one from the download endpoint',
    });
  });

  it('404s unknown items and versions, and every version of an unpublished item', async () => {
    const { item } = await publishExample('hello-widget', { id: uniqueSlug('unpub') });
    const mid = item.marketplace_id;
    const d = (await get(`/store/marketplace/download/${mid}/1.0.0`)).json();
    for (const url of [
      `/store/marketplace/download/${mid}/9.9.9`,
      `/store/marketplace/download/${mid}/1.0`,
      '/store/marketplace/download/@acme/never-published/1.0.0',
      `/store/marketplace/download/${mid}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().type).toBe('not_found');
    }
    expect((await t.admin('POST', `/admin/marketplace/items/${item.id}/unpublish`)).statusCode).toBe(200);
    expect((await get(`/store/marketplace/download/${mid}/1.0.0`)).statusCode).toBe(404);
    expect((await get(local(d.url))).statusCode).toBe(404); // a URL issued before unpublishing dies with it
  });
});

describe('paid items', () => {
  it('require a valid license for the instance: 403 without one', async () => {
    const { item } = await publishExample('loyalty-points', { id: uniqueSlug('paid') }, { price_eur: '29.90' });
    expect(item.price_eur).toBe(29.9);
    const feed = (await get(`/store/marketplace/feed/${item.marketplace_id}`)).json().product;
    expect(feed.price_eur).toBe(29.9);
    for (const query of [
      '',
      '?license_key=lic_unknown',
      '?instance_id=inst_1',
      '?license_key=lic_UNKNOWN00000000000000000000&instance_id=inst_1',
    ]) {
      const res = await get(`${feed.download_url}${query}`);
      expect(res.statusCode, query).toBe(403);
      expect(res.json()).toEqual({
        type: 'forbidden',
        code: 'marketplace_license_required',
        message: 'A valid license for this instance is required',
      });
    }
    // Made free by the vendor: downloadable without a license.
    await t.admin('POST', `/admin/marketplace/items/${item.id}`, { price_eur: 0 });
    expect((await get(feed.download_url)).statusCode).toBe(200);
  });
});
