import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, errorOf } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { ProductResponse, VariantList, VariantResponse, VariantWithProductList } from './schema.ts';
import { defaultChannelId, expectSchema, makeProduct, outboxEvents, uniq } from './products.testing.ts';

/** Medusa's variant routes: over HTTP and through @medusajs/js-sdk, as the dashboard calls them. */

let t: TestApp;
let sdk: Sdk;
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

const shirt = (sku = `TEE-${uniq()}`) =>
  makeProduct(t, {
    status: 'published',
    sales_channels: [{ id: channel }],
    options: [{ title: 'Size', values: ['S', 'M', 'L'] }],
    variants: [{ title: 'S', sku, options: { Size: 'S' }, prices: [{ currency_code: 'eur', amount: 1000 }] }],
  }) as Promise<{ id: string; variants: { id: string; sku: string }[] }>;

const storeVariants = async (productId: string) => {
  const res = await t.store('GET', `/store/products/${productId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().product.variants as { id: string; title: string; sku: string | null }[]).map((v) => v.title);
};

const stockOf = (variantId: string) =>
  rows<{ stocked_quantity: number }>(
    t.database.db,
    sql`select l.stocked_quantity from product_variant_inventory_items k
        join inventory_levels l on l.inventory_item_id = k.inventory_item_id where k.variant_id = ${variantId}`,
  );

describe('a product’s variants, one at a time', () => {
  it('creates a variant with stock, shows it in the store at once, and emits product.updated', async () => {
    const product = await shirt();
    const sku = `TEE-M-${uniq()}`;
    const { product: after } = await sdk.admin.product.createVariant(product.id, {
      title: 'M',
      sku,
      options: { Size: 'M' },
      prices: [{ currency_code: 'eur', amount: 1200 }],
      inventory_quantity: 7,
    } as never);
    expectSchema(ProductResponse, { product: after });
    const created = after.variants!.find((v) => v.sku === sku)!;
    expect(created).toMatchObject({ title: 'M', variant_rank: 1, inventory_quantity: 7, manage_inventory: true });
    expect(created.prices).toMatchObject([{ currency_code: 'eur', amount: 1200 }]);
    // The insert trigger gave it an inventory item with a level holding its quantity.
    expect(await stockOf(created.id)).toEqual([{ stocked_quantity: 7 }]);
    expect(await storeVariants(product.id)).toEqual(['S', 'M']);
    const events = (await outboxEvents(t, product.id)).map((e) => e.name);
    expect(events.at(-1)).toBe('product.updated');
    const last = (await outboxEvents(t, product.id)).at(-1)!;
    expect((last.payload.variants as { sku: string }[]).map((v) => v.sku)).toContain(sku);
  });

  it('refuses an undeclared option value, a taken SKU and an unknown product, writing nothing', async () => {
    const product = await shirt();
    const other = await shirt();
    const bad = await t.admin('POST', `/admin/products/${product.id}/variants`, {
      title: 'XL',
      options: { Size: 'XL' },
    });
    expect(errorOf(bad)).toEqual({ status: 400, type: 'invalid_data', code: 'variant_option_value_unknown' });
    const taken = await t.admin('POST', `/admin/products/${product.id}/variants`, {
      title: 'M',
      sku: other.variants[0].sku,
    });
    expect(errorOf(taken)).toEqual({ status: 400, type: 'invalid_data', code: 'variant_sku_taken' });
    const unknown = await t.admin('POST', '/admin/products/prod_missing/variants', { title: 'M' });
    expect(errorOf(unknown)).toEqual({ status: 404, type: 'not_found', code: 'product_not_found' });
    const noTitle = await t.admin('POST', `/admin/products/${product.id}/variants`, { sku: 'X' });
    expect(errorOf(noTitle)).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(await storeVariants(product.id)).toEqual(['S']);
  });

  it('updates only the fields given, replaces prices, and keeps the other variants', async () => {
    const product = await shirt();
    const variantId = product.variants[0].id;
    const { product: after } = await sdk.admin.product.updateVariant(product.id, variantId, {
      title: 'Small',
      prices: [
        { currency_code: 'eur', amount: 900 },
        { currency_code: 'usd', amount: 1100 },
      ],
    });
    const variant = after.variants!.find((v) => v.id === variantId)!;
    expect(variant).toMatchObject({ title: 'Small', sku: product.variants[0].sku });
    expect(variant.prices!.map((p) => [p.currency_code, p.amount])).toEqual([
      ['eur', 900],
      ['usd', 1100],
    ]);
    expect(await storeVariants(product.id)).toEqual(['Small']);
    const missing = await t.admin('POST', `/admin/products/${product.id}/variants/variant_missing`, { title: 'x' });
    expect(errorOf(missing)).toEqual({ status: 404, type: 'not_found', code: 'product_variant_not_found' });
  });

  it('reads one variant and lists a product’s variants with filters and paging', async () => {
    const product = await shirt();
    await sdk.admin.product.createVariant(product.id, { title: 'M', options: { Size: 'M' }, prices: [] });
    await sdk.admin.product.createVariant(product.id, { title: 'L', options: { Size: 'L' }, prices: [] });
    const { variant } = await sdk.admin.product.retrieveVariant(product.id, product.variants[0].id, {
      fields: '*prices',
    });
    expectSchema(VariantResponse, { variant });
    expect(variant).toMatchObject({ id: product.variants[0].id, product_id: product.id, title: 'S' });

    const all = await sdk.admin.product.listVariants(product.id);
    expectSchema(VariantList, all);
    expect(all.variants.map((v) => v.title)).toEqual(['S', 'M', 'L']);
    expect(all.count).toBe(3);
    const page = await sdk.admin.product.listVariants(product.id, { limit: 1, offset: 1, order: '-title' });
    expect(page).toMatchObject({ count: 3, limit: 1, offset: 1 });
    expect(page.variants.map((v) => v.title)).toEqual(['M']);
    const bySku = await sdk.admin.product.listVariants(product.id, { sku: product.variants[0].sku });
    expect(bySku.variants.map((v) => v.id)).toEqual([product.variants[0].id]);
    const byQ = await sdk.admin.product.listVariants(product.id, { q: 'l' });
    expect(byQ.variants.map((v) => v.title)).toEqual(['L']);

    const other = await shirt();
    const wrong = await t.admin('GET', `/admin/products/${other.id}/variants/${product.variants[0].id}`);
    expect(errorOf(wrong)).toEqual({ status: 404, type: 'not_found', code: 'product_variant_not_found' });
  });

  it('deletes a variant: the answer carries the product, the store drops it and its SKU is free again', async () => {
    const product = await shirt();
    const sku = product.variants[0].sku;
    const added = await sdk.admin.product.createVariant(product.id, { title: 'M', options: { Size: 'M' }, prices: [] });
    const deleted = await sdk.admin.product.deleteVariant(product.id, product.variants[0].id);
    expect(deleted).toMatchObject({ id: product.variants[0].id, object: 'variant', deleted: true });
    expect(deleted.parent!.variants!.map((v) => v.title)).toEqual(['M']);
    expect(await storeVariants(product.id)).toEqual(['M']);
    const again = await t.admin('DELETE', `/admin/products/${product.id}/variants/${product.variants[0].id}`);
    expect(errorOf(again)).toEqual({ status: 404, type: 'not_found', code: 'product_variant_not_found' });
    const reused = await t.admin('POST', `/admin/products/${product.id}/variants/${added.product.variants![1].id}`, {
      sku,
    });
    expect(reused.statusCode, reused.body).toBe(200);
  });
});

describe('POST /admin/products/{id}/variants/batch', () => {
  it('creates, updates and deletes in one transaction and answers the variants', async () => {
    const product = await shirt();
    const keep = product.variants[0].id;
    const { product: withM } = await sdk.admin.product.createVariant(product.id, {
      title: 'M',
      options: { Size: 'M' },
      prices: [],
    });
    const drop = withM.variants!.find((v) => v.title === 'M')!.id;
    const result = await sdk.admin.product.batchVariants(product.id, {
      create: [{ title: 'L', options: { Size: 'L' }, prices: [{ currency_code: 'eur', amount: 1500 }] }],
      update: [{ id: keep, title: 'Small' }],
      delete: [drop],
    });
    expect(result.created.map((v) => v.title)).toEqual(['L']);
    expect(result.created[0].prices).toMatchObject([{ currency_code: 'eur', amount: 1500 }]);
    expect(result.updated.map((v) => [v.id, v.title])).toEqual([[keep, 'Small']]);
    expect(result.deleted).toEqual({ ids: [drop], object: 'variant', deleted: true });
    expect(await storeVariants(product.id)).toEqual(['Small', 'L']);
  });

  it('a failing item fails the whole batch and writes nothing', async () => {
    const product = await shirt();
    const before = await t.admin('GET', `/admin/products/${product.id}`);
    const res = await t.admin('POST', `/admin/products/${product.id}/variants/batch`, {
      create: [{ title: 'M', options: { Size: 'M' } }],
      update: [{ id: product.variants[0].id, title: 'Small' }],
      delete: ['variant_missing'],
    });
    expect(errorOf(res)).toEqual({ status: 404, type: 'not_found', code: 'product_variant_not_found' });
    const after = await t.admin('GET', `/admin/products/${product.id}`);
    expect(after.json()).toEqual(before.json());
    const twice = await t.admin('POST', `/admin/products/${product.id}/variants/batch`, {
      update: [
        { id: product.variants[0].id, title: 'a' },
        { id: product.variants[0].id, title: 'b' },
      ],
    });
    expect(errorOf(twice)).toEqual({ status: 400, type: 'invalid_data', code: 'variant_listed_twice' });
  });
});

describe('GET /admin/product-variants', () => {
  it('lists every product’s live variants, each with its product, filtered by product and SKU', async () => {
    const a = await shirt();
    const b = await shirt();
    const both = await sdk.admin.productVariant.list({ product_id: [a.id, b.id] } as never);
    expectSchema(VariantWithProductList, both);
    expect(both.count).toBe(2);
    expect(both.variants.map((v) => v.product?.id).sort()).toEqual([a.id, b.id].sort());
    const one = await sdk.admin.productVariant.list({ sku: b.variants[0].sku });
    expect(one.variants.map((v) => [v.id, v.product?.id])).toEqual([[b.variants[0].id, b.id]]);
    await sdk.admin.product.delete(b.id);
    const gone = await sdk.admin.productVariant.list({ sku: b.variants[0].sku });
    expect(gone.count).toBe(0);
  });
});

describe('POST /admin/products/{id}/images/{image_id}/variants/batch', () => {
  it('chooses which variants show an image; variants of another product are refused', async () => {
    const product = (await makeProduct(t, {
      images: [{ url: 'https://img.example/a.png' }],
      options: [{ title: 'Size', values: ['S', 'M'] }],
      variants: [
        { title: 'S', options: { Size: 'S' } },
        { title: 'M', options: { Size: 'M' } },
      ],
    })) as { id: string; images: { id: string }[]; variants: { id: string; title: string }[] };
    const [s, m] = product.variants;
    const image = product.images[0].id;
    const added = await sdk.admin.product.batchImageVariants(product.id, image, { add: [s.id, m.id] });
    expect(added).toEqual({ added: [s.id, m.id], removed: [] });
    const removed = await sdk.admin.product.batchImageVariants(product.id, image, { remove: [m.id] });
    expect(removed).toEqual({ added: [], removed: [m.id] });
    const { product: read } = await sdk.admin.product.retrieve(product.id);
    const variants = read.variants as unknown as { title: string; images: { id: string }[] }[];
    const images = Object.fromEntries(variants.map((v) => [v.title, v.images.map((i) => i.id)]));
    expect(images).toEqual({ S: [image], M: [] });

    const other = await shirt();
    const foreign = await t.admin('POST', `/admin/products/${product.id}/images/${image}/variants/batch`, {
      add: [other.variants[0].id],
    });
    expect(errorOf(foreign)).toEqual({ status: 400, type: 'invalid_data', code: 'variants_not_in_product' });
    const noImage = await t.admin('POST', `/admin/products/${product.id}/images/img_missing/variants/batch`, {
      add: [s.id],
    });
    expect(errorOf(noImage)).toEqual({ status: 404, type: 'not_found', code: 'product_image_not_found' });
  });
});
