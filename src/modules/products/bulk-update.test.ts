import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { inTx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { type ProductUpdate, updateProductsIn } from './bulk-update.ts';
import { insertChannel, insertPublishableKey, makeCategory, outboxEvents, uniq } from './products.testing.ts';
import { refreshStoreDocuments } from './store-documents.ts';

/**
 * updateProductsIn (the CSV import's update path, many products per statement) against
 * updateProductIn (one product, the single route): the same update of twin products gives the
 * same product, the same `product.updated` payload and the same store document, ids and times
 * aside; and a refused set writes nothing.
 */
let t: TestApp;
let tags: string[];
let channels: string[];
let category: string;
/** A key of the channel the updates move the products into. */
let storeKey: string;
beforeAll(async () => {
  t = await startTestApp();
  tags = [];
  for (const value of [`tw-a-${uniq()}`, `tw-b-${uniq()}`]) {
    const res = await t.admin('POST', '/admin/product-tags', { value });
    expect(res.statusCode, res.body).toBe(200);
    tags.push(res.json().product_tag.id);
  }
  channels = [await insertChannel(t), await insertChannel(t)];
  category = (await makeCategory(t)).id;
  storeKey = await insertPublishableKey(t, [channels[1]]);
}, 300_000);
afterAll(() => t.close());

type Json = { id: string; variants: { id: string; sku: string }[]; images: { id: string; url: string }[] };

async function twin(name: string): Promise<Json> {
  const res = await t.admin('POST', '/admin/products', {
    title: `Twin ${name}`,
    handle: `twin-${name}`,
    status: 'published',
    weight: 100,
    metadata: { a: 1 },
    options: [
      { title: 'Size', values: ['S', 'M'] },
      { title: 'Color', values: ['Red'] },
    ],
    variants: [
      {
        title: 'S Red',
        sku: `TW-${name}-S`,
        options: { Size: 'S', Color: 'Red' },
        manage_inventory: true,
        inventory_quantity: 5,
        prices: [
          { currency_code: 'eur', amount: 1000 },
          { currency_code: 'usd', amount: 1100 },
          { currency_code: 'eur', amount: 900, min_quantity: 10 },
        ],
      },
      {
        title: 'M Red',
        sku: `TW-${name}-M`,
        options: { Size: 'M', Color: 'Red' },
        prices: [{ currency_code: 'eur', amount: 1200 }],
      },
    ],
    images: [{ url: `https://img.example/${name}/1.png` }, { url: `https://img.example/${name}/2.png` }],
    tags: [{ id: tags[0] }],
    sales_channels: [{ id: channels[0] }],
    categories: [{ id: category }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product;
}

/** Every kind of change an update makes: fields, options, variants changed, added and dropped, prices, images, links. */
function patchOf(p: Json, name: string): Omit<ProductUpdate, 'id'> {
  const small = p.variants.find((v) => v.sku.endsWith('-S'))!;
  const second = p.images.find((i) => i.url.endsWith('/2.png'))!;
  return {
    title: `Twin ${name} renamed`,
    handle: `twin-${name}-new`,
    subtitle: 'now with a subtitle',
    metadata: null,
    weight: 250,
    discountable: false,
    options: [
      { title: 'Size', values: ['S', 'M', 'L'] },
      { title: 'Material', values: ['Wool'] },
    ],
    variants: [
      {
        id: small.id,
        sku: `TW-${name}-S2`,
        options: { Size: 'S', Material: 'Wool' },
        inventory_quantity: 8,
        prices: [
          { currency_code: 'eur', amount: 1500 },
          { currency_code: 'eur', amount: 1400, min_quantity: 5 },
        ],
      },
      {
        title: 'L Wool',
        sku: `TW-${name}-L`,
        options: { Size: 'L', Material: 'Wool' },
        manage_inventory: true,
        inventory_quantity: 4,
        prices: [{ currency_code: 'usd', amount: 2000 }],
      },
    ],
    images: [
      { id: second.id, url: `https://img.example/${name}/2b.png`, metadata: { k: 1 } },
      { url: `https://img.example/${name}/3.png` },
    ],
    tags: [{ id: tags[0] }, { id: tags[1] }],
    sales_channels: [{ id: channels[1] }],
    categories: [],
  };
}

/** A prefixed ULID, or an option value's id (a hash of its option and value). */
const ID = /^[a-z]+_([0-9A-HJKMNP-TV-Z]{26}|[0-9a-f]{24})$/;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** Ids and times masked, the twin's name made neutral, arrays in a fixed order: what must be equal. */
function canon(value: unknown, name: string, keep: string[]): unknown {
  const masked = JSON.parse(JSON.stringify(value).replaceAll(name, 'NAME'));
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    if (typeof v === 'string' && !keep.includes(v) && (ID.test(v) || TIME.test(v))) return 'MASKED';
    return v;
  };
  return walk(masked);
}

const adminJson = async (id: string) => {
  const res = await t.admin('GET', `/admin/products/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product;
};
const storeJson = async (id: string) => {
  const res = await t.inject({
    method: 'GET',
    url: `/store/products?id[]=${id}`,
    headers: { 'x-publishable-api-key': storeKey },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().products;
};

/** Each live variant's stocked quantity at its level, by title. */
const stockOf = (productId: string) =>
  rows<{ title: string; stocked: number }>(
    t.database.db,
    sql`select v.title, l.stocked_quantity::int as stocked from product_variants v
      join product_variant_inventory_items k on k.variant_id = v.id
      join inventory_levels l on l.inventory_item_id = k.inventory_item_id
      where v.product_id = ${productId} and v.deleted_at is null order by v.title`,
  );

describe('updateProductsIn', () => {
  it('changes a set of products as updateProductIn changes each: rows, stock, event and store document', async () => {
    const names = [`one${uniq()}`, `set${uniq()}`, `set${uniq()}`];
    const [single, ...set] = await Promise.all(names.map(twin));
    const res = await t.admin('POST', `/admin/products/${single.id}`, patchOf(single, names[0]));
    expect(res.statusCode, res.body).toBe(200);
    await inTx(t.ctx, async (tctx) => {
      const ids = await updateProductsIn(
        tctx,
        set.map((p, i) => ({ id: p.id, ...patchOf(p, names[i + 1]) })),
      );
      expect(ids).toEqual(set.map((p) => p.id));
      await refreshStoreDocuments(tctx.tx, ids);
    });
    // The ids the products, channels, tags and categories share stay visible; their own are masked.
    const keep = [...tags, ...channels, category];
    const expected = canon(await adminJson(single.id), names[0], keep);
    const singleEvent = (await outboxEvents(t, single.id)).filter((e) => e.name === 'product.updated').at(-1)!;
    const expectedStore = canon(await storeJson(single.id), names[0], keep);
    for (const [i, p] of set.entries()) {
      const after = await adminJson(p.id);
      expect(canon(after, names[i + 1], keep)).toEqual(expected);
      // The variant kept its id, the kept image too, and a new variant got its stock.
      expect(after.variants.map((v: { id: string }) => v.id)).toContain(
        p.variants.find((v) => v.sku.endsWith('-S'))!.id,
      );
      const events = (await outboxEvents(t, p.id)).filter((e) => e.name === 'product.updated');
      expect(events).toHaveLength(1);
      expect(canon(events[0].payload, names[i + 1], keep)).toEqual(canon(singleEvent.payload, names[0], keep));
      expect(canon(await storeJson(p.id), names[i + 1], keep)).toEqual(expectedStore);
      expect(await stockOf(p.id)).toEqual(await stockOf(single.id));
    }
    // The kept variant's level moved to its new quantity; the new one got an item and a level.
    expect(await stockOf(single.id)).toEqual([
      { title: 'L Wool', stocked: 4 },
      { title: 'S Red', stocked: 8 },
    ]);
    expect((await storeJson(single.id)).length).toBe(1);
  }, 120_000);

  it('refuses the whole set for one bad product, with the error one at a time gives, and writes nothing', async () => {
    const names = [`bad${uniq()}`, `bad${uniq()}`];
    const [good, bad] = await Promise.all(names.map(twin));
    const other = await twin(`oth${uniq()}`);
    const attempt = (second: Omit<ProductUpdate, 'id'>) =>
      inTx(t.ctx, (tctx) =>
        updateProductsIn(tctx, [
          { id: good.id, title: 'Changed' },
          { id: bad.id, ...second },
        ]),
      );
    // A SKU another product holds; a variant of another product; a handle taken; an unknown product.
    await expect(attempt({ variants: [{ id: bad.variants[0].id, sku: other.variants[0].sku }] })).rejects.toMatchObject(
      {
        code: 'variant_sku_taken',
      },
    );
    await expect(attempt({ variants: [{ id: other.variants[0].id }] })).rejects.toMatchObject({
      code: 'variant_not_in_product',
    });
    await expect(attempt({ handle: `twin-${names[0]}` })).rejects.toMatchObject({ code: 'product_handle_taken' });
    await expect(
      inTx(t.ctx, (tctx) => updateProductsIn(tctx, [{ id: good.id, title: 'Changed' }, { id: 'prod_nope' }])),
    ).rejects.toMatchObject({ code: 'product_not_found' });
    expect((await adminJson(good.id)).title).toBe(`Twin ${names[0]}`);
    expect((await outboxEvents(t, good.id)).map((e) => e.name)).toEqual(['product.created']);
  }, 120_000);
});
