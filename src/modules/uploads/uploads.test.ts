import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { defaultChannelId, makeProduct } from '../products/products.testing.ts';
import { multipart, PNG } from './uploads.testing.ts';

// The SDK's upload checks `body instanceof FileList`, a browser global Node does not have.
(globalThis as { FileList?: unknown }).FileList ??= class FileList {};

let t: TestApp;
let sdk: { storefront: Sdk; dashboard: Sdk };
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-uploads-'));
  t = await startTestApp({ env: { DATA_DIR: dataDir, UPLOAD_MAX_BYTES: '2000' } });
  sdk = await medusaSdks(t);
});
afterAll(() => t.close());

const pathOf = (url: string) => new URL(url).pathname;

describe('uploads on local disk', () => {
  it('stores images through the SDK, answers absolute URLs under PUBLIC_URL and serves them', async () => {
    const { files } = await sdk.dashboard.admin.upload.create({
      files: [new File([PNG], 'Red Shirt (front).PNG', { type: 'image/png' }), new File([PNG], '../../etc/passwd')],
    });
    expect(files).toHaveLength(2);
    expect(files[0].url).toMatch(/^http:\/\/shop\.test\/static\/uploads\/[a-z0-9]+-red-shirt-front\.png$/);
    expect(files[1].url).toMatch(/\/static\/uploads\/[a-z0-9]+-[a-z-]*passwd\.png$/);
    expect(readdirSync(path.join(dataDir, 'uploads'))).toHaveLength(2);

    const served = await t.inject({ method: 'GET', url: pathOf(files[0].url) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    expect((await sdk.dashboard.admin.upload.retrieve(files[0].id)).file).toEqual(files[0]);
    expect(await sdk.dashboard.admin.upload.delete(files[1].id)).toEqual({
      id: files[1].id,
      object: 'file',
      deleted: true,
    });
    expect((await t.inject({ method: 'GET', url: pathOf(files[1].url) })).statusCode).toBe(404);
    expect((await t.admin('GET', `/admin/uploads/${files[1].id}`)).statusCode).toBe(404);
  });

  it('product images and variant images keep their order and show in the store', async () => {
    const { files } = await sdk.dashboard.admin.upload.create({
      files: [new File([PNG], 'a.png'), new File([PNG], 'b.png')],
    });
    const product = await makeProduct(t, {
      status: 'published',
      sales_channels: [{ id: await defaultChannelId(t) }],
      thumbnail: files[0].url,
      images: [{ url: files[1].url }, { url: files[0].url, metadata: { alt: 'front' } }],
      weight: 250,
      material: 'cotton',
      origin_country: 'pt',
      options: [{ title: 'Size', values: ['S'] }],
      variants: [{ title: 'S', options: { Size: 'S' }, weight: 240, barcode: '123', thumbnail: files[1].url }],
    });
    expect(product.images.map((i: { url: string; rank: number }) => [i.url, i.rank])).toEqual([
      [files[1].url, 0],
      [files[0].url, 1],
    ]);
    const front = product.images[1];
    const variant = product.variants[0];
    const linked = await sdk.dashboard.admin.product.batchVariantImages(product.id, variant.id, { add: [front.id] });
    expect(linked).toEqual({ added: [front.id], removed: [] });

    const { product: seen } = await sdk.storefront.store.product.retrieve(product.id);
    expect(seen).toMatchObject({ thumbnail: files[0].url, weight: 250, material: 'cotton', origin_country: 'pt' });
    expect(seen.images?.map((i) => i.id)).toEqual(product.images.map((i: { id: string }) => i.id));
    expect(seen.variants?.[0]).toMatchObject({ weight: 240, barcode: '123', thumbnail: files[1].url });
    expect(seen.variants?.[0].images?.map((i) => i.metadata)).toEqual([{ alt: 'front' }]);

    // Reordering keeps an image (and its variant link) by id; a left-out image goes, with its links.
    const res = await t.admin('POST', `/admin/products/${product.id}`, { images: [{ id: front.id, url: front.url }] });
    expect(res.json().product.images.map((i: { id: string; rank: number }) => [i.id, i.rank])).toEqual([[front.id, 0]]);
    expect(res.json().product.variants[0].images.map((i: { id: string }) => i.id)).toEqual([front.id]);
    const foreign = await t.admin('POST', `/admin/products/${product.id}/variants/${variant.id}/images/batch`, {
      add: ['img_nope'],
    });
    expect(foreign.statusCode).toBe(400);
  });

  it('refuses non-images, oversized files, other fields and non-multipart bodies; 404 for odd names', async () => {
    const upload = (parts: [string, string, Buffer][]) => {
      const { payload, headers } = multipart(parts);
      return t.admin('POST', '/admin/uploads', payload, { headers });
    };
    const text = await upload([['files', 'x.png', Buffer.from('<svg onload=alert(1)>')]]);
    expect(text.json()).toEqual({
      type: 'invalid_data',
      code: 'file_type_refused',
      message: 'File x.png is not an accepted image (image/jpeg, image/png, image/gif, image/webp, image/avif)',
    });
    const big = await upload([['files', 'big.png', Buffer.concat([PNG, Buffer.alloc(3000)])]]);
    expect(big.statusCode).toBe(413);
    expect((await t.admin('POST', '/admin/uploads', { files: [] })).statusCode).toBe(400);
    expect((await upload([])).statusCode).toBe(400);
    expect(readdirSync(path.join(dataDir, 'uploads'))).toHaveLength(3);
    for (const url of ['/static/uploads/..%2Fsecrets.json', '/static/uploads/x.svg', '/static/uploads/nope.png']) {
      expect((await t.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
    expect((await t.admin('POST', '/admin/uploads', undefined, { token: t.viewerToken })).statusCode).toBe(403);
  });
});
