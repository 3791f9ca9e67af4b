import { createServer } from 'node:net';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { VIEWER, launchBrowser, login, newPage, screenshot, startShop, type Shop } from './harness.ts';

/** A free port, so PUBLIC_URL (which upload URLs are built on) can name the port the shop listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A valid 8×8 PNG of one colour, built here so the test carries no binary fixture. */
function png(r: number, g: number, b: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const size = 8;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const row = Buffer.from([0, ...Array.from({ length: size }, () => [r, g, b]).flat()]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let shop: Shop;
let browser: Browser;
let page: Page;
let errors: string[];
let productId = '';
beforeAll(async () => {
  const port = await freePort();
  [shop, browser] = await Promise.all([
    startShop('media', { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }),
    launchBrowser(),
  ]);
  ({ page, errors } = await newPage(browser));
  await login(page, shop);
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
});

interface Read {
  product: {
    thumbnail: string | null;
    images: { url: string }[];
    collection: { id: string } | null;
    categories: { id: string }[];
  };
}

describe('product media and organisation', () => {
  it('uploads images, picks a collection and a category in the editor, and the product is saved with them', async () => {
    const { collection } = await shop.admin<{ collection: { id: string } }>('POST', '/admin/collections', {
      title: 'Summer',
    });
    const { product_category: parent } = await shop.admin<{ product_category: { id: string } }>(
      'POST',
      '/admin/product-categories',
      { name: 'Clothing', is_active: true },
    );
    const { product_category: category } = await shop.admin<{ product_category: { id: string } }>(
      'POST',
      '/admin/product-categories',
      { name: 'Shirts', is_active: true, parent_category_id: parent.id },
    );
    const { sales_channels } = await shop.admin<{ sales_channels: { id: string }[] }>('GET', '/admin/sales-channels');
    const { product } = await shop.admin<{ product: { id: string } }>('POST', '/admin/products', {
      title: 'Linen shirt',
      status: 'published',
      sales_channels: sales_channels.map(({ id }) => ({ id })),
    });

    await page.goto(`${shop.url}/app/products/${product.id}`);
    await page.getByRole('heading', { name: 'Linen shirt' }).waitFor();
    const gallery = page.getByRole('list', { name: 'Images' });
    await page.getByLabel('Add images').setInputFiles([
      { name: 'blue.png', mimeType: 'image/png', buffer: png(40, 90, 200) },
      { name: 'green.png', mimeType: 'image/png', buffer: png(30, 160, 80) },
    ]);
    await gallery.getByRole('img').nth(1).waitFor();
    await page
      .getByLabel('Add images')
      .setInputFiles([{ name: 'red.png', mimeType: 'image/png', buffer: png(200, 50, 40) }]);
    await gallery.getByRole('img').nth(2).waitFor();
    // The thumbnails load from the upload URLs (not a broken image).
    const widths = await gallery
      .getByRole('img')
      .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
    expect(widths).toEqual([8, 8, 8]);
    // Removing the first makes the second (green) the thumbnail.
    await page.getByRole('button', { name: 'Remove image 1' }).click();
    await expect.poll(() => gallery.getByRole('img').count()).toBe(2);
    await gallery.getByRole('img', { name: 'Image 1 (thumbnail)' }).waitFor();

    await page.getByLabel('Collection').selectOption({ label: 'Summer' });
    await page.getByLabel('Shirts').check();
    await screenshot(page, '13-product-media', { quiet: true, docs: 'admin-product-media' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Product saved').waitFor();

    const saved = await shop.admin<Read>('GET', `/admin/products/${product.id}`);
    expect(saved.product.images).toHaveLength(2);
    expect(saved.product.thumbnail).toBe(saved.product.images[0].url);
    expect(saved.product.images[0].url).toMatch(/green/);
    expect(saved.product.images[1].url).toMatch(/red/);
    expect(saved.product.collection?.id).toBe(collection.id);
    expect(saved.product.categories.map((c) => c.id)).toEqual([category.id]);

    // The store finds it under the parent category too (a subtree filter), with its gallery.
    const store = await shop.store<{ products: { id: string; images: unknown[] }[] }>(
      'GET',
      `/store/products?category_id[]=${parent.id}`,
    );
    expect(store.products.map((p) => [p.id, p.images.length])).toEqual([[product.id, 2]]);

    // A reload shows what was saved: two images in order, the collection and the category.
    await page.reload();
    await gallery.getByRole('img', { name: 'Image 2' }).waitFor();
    expect(await page.getByLabel('Collection').inputValue()).toBe(collection.id);
    expect(await page.getByLabel('Shirts').isChecked()).toBe(true);
    expect(errors).toEqual([]);
    productId = product.id;
  });

  it('shows a viewer the images, collection and categories without a way to change them', async () => {
    const viewer = await newPage(browser);
    await login(viewer.page, shop, VIEWER, `/app/products/${productId}`);
    const gallery = viewer.page.getByRole('list', { name: 'Images' });
    await gallery.getByRole('img', { name: 'Image 2' }).waitFor();
    expect(await viewer.page.getByLabel('Add images').count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: /Remove image/ }).count()).toBe(0);
    expect(await viewer.page.getByLabel('Collection').isDisabled()).toBe(true);
    expect(await viewer.page.getByLabel('Shirts').isDisabled()).toBe(true);
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();
  });
});

describe('collections and categories in Settings', () => {
  it('creates a collection and a child category that is inactive', async () => {
    await page.goto(`${shop.url}/app/settings/collections`);
    const newCollection = page.getByRole('form', { name: 'New collection' });
    await newCollection.getByLabel('Title').fill('Winter');
    await newCollection.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'Winter', exact: true }).waitFor();

    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Categories' }).click();
    await page.getByRole('cell', { name: 'Shirts', exact: true }).waitFor();
    const form = page.getByRole('form', { name: 'New category' });
    await form.getByLabel('Name').fill('Boots');
    await form.getByLabel('Parent').selectOption({ label: 'Clothing' });
    await form.getByLabel('Visibility').selectOption('inactive');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'Boots', exact: true }).waitFor();
    await screenshot(page, '14-settings-categories', { quiet: true });

    const { collections } = await shop.admin<{ collections: { title: string }[] }>('GET', '/admin/collections');
    expect(collections.map((c) => c.title).sort()).toEqual(['Summer', 'Winter']);
    const { product_categories } = await shop.admin<{
      product_categories: { name: string; parent_category_id: string | null; is_active: boolean }[];
    }>('GET', '/admin/product-categories?q=boots');
    const clothing = await shop.admin<{ product_categories: { id: string }[] }>(
      'GET',
      '/admin/product-categories?q=clothing',
    );
    expect(product_categories.map((c) => [c.name, c.parent_category_id, c.is_active])).toEqual([
      ['Boots', clothing.product_categories[0].id, false],
    ]);
    expect(errors).toEqual([]);
  });
});
