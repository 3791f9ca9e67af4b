import { sql } from 'drizzle-orm';
import type { Ctx } from '../platform/context.ts';
import { rows } from '../platform/db/database.ts';
import { ensureDefaultStoreAccess } from '../modules/api-keys/defaults.ts';
import { createCategory } from '../modules/categories/service.ts';
import { createProduct } from '../modules/products/service.ts';
import { createRegion } from '../modules/regions/service.ts';
import { createShippingOption } from '../modules/shipping-options/service.ts';
import { createCollection } from '../modules/collections/service.ts';
import type { FileStorage } from '../modules/uploads/storage.ts';
import {
  CATEGORIES,
  COLLECTIONS,
  PRODUCTS,
  REGIONS,
  SHIPPING,
  STOCK,
  type SeedImage,
  type SeedProduct,
} from './seed-data.ts';
import { garmentImage } from './seed-images.ts';

export interface SeedReport {
  /** Europe's (the first region's) id. */
  regionId: string;
  regionIds: string[];
  created: string[];
  skipped: string[];
}

/** Every combination of the options' values: one variant each (S / Black, S / White, …). */
function combinations(options: SeedProduct['options']): Record<string, string>[] {
  return options.reduce<Record<string, string>[]>(
    (acc, o) => acc.flatMap((c) => o.values.map((v) => ({ ...c, [o.title]: v }))),
    [{}],
  );
}

const one = async <T>(ctx: Ctx, query: ReturnType<typeof sql>) => (await rows<T>(ctx.db, query))[0];

/**
 * A store ready to browse, through the same services as the admin API. Idempotent: what exists
 * (regions by name, options by name in them, collections and products by handle) is left as it is.
 * Product pictures are drawn and stored in the shop's file storage, so they load without internet.
 */
export async function seedStore(ctx: Ctx, storage: FileStorage): Promise<SeedReport> {
  const report: SeedReport = { regionId: '', regionIds: [], created: [], skipped: [] };
  await ensureDefaultStoreAccess(ctx);
  const channel = await one<{ id: string }>(
    ctx,
    sql`select id from sales_channels where deleted_at is null order by created_at, id limit 1`,
  );

  for (const region of REGIONS) report.regionIds.push(await seedRegion(ctx, region, report));
  report.regionId = report.regionIds[0];

  const collectionIds = new Map<string, string>();
  for (const c of COLLECTIONS) {
    const found = await one<{ id: string }>(
      ctx,
      sql`select id from product_collections where handle = ${c.handle} and deleted_at is null`,
    );
    report[found ? 'skipped' : 'created'].push(`collection ${c.title}`);
    collectionIds.set(c.handle, found?.id ?? (await createCollection(ctx, c)).id);
  }

  // Active, public categories the storefront's menu and category pages list, found again by handle.
  const categoryIds = new Map<string, string>();
  for (const name of CATEGORIES) {
    const handle = name.toLowerCase();
    const found = await one<{ id: string }>(
      ctx,
      sql`select id from categories where handle = ${handle} and deleted_at is null`,
    );
    if (found) report.skipped.push(`category ${name}`);
    else report.created.push(`category ${name}`);
    categoryIds.set(name, found?.id ?? (await createCategory(ctx, { name, handle, is_active: true })).id);
  }

  for (const p of PRODUCTS) {
    const found = await one<{ id: string }>(
      ctx,
      sql`select id from products where handle = ${p.handle} and deleted_at is null`,
    );
    if (found) {
      report.skipped.push(`product ${p.handle}`);
      continue;
    }
    const images: string[] = [];
    for (const image of p.images) images.push(await storeImage(storage, image));
    await createProduct(ctx, {
      title: p.title,
      handle: p.handle,
      description: p.description,
      status: 'published',
      thumbnail: images[0],
      images: images.map((url) => ({ url })),
      collection_id: collectionIds.get(p.collection),
      categories: [{ id: categoryIds.get(p.category)! }],
      sales_channels: [{ id: channel.id }],
      options: p.options,
      variants: combinations(p.options).map((values) => ({
        title: Object.values(values).join(' / '),
        sku: `${p.handle}-${Object.values(values).join('-')}`.toUpperCase(),
        options: values,
        inventory_quantity: STOCK,
        prices: [
          { currency_code: 'eur', amount: p.prices.eur },
          { currency_code: 'usd', amount: p.prices.usd },
        ],
      })),
    });
    report.created.push(`product ${p.handle}`);
  }
  return report;
}

/** A picture drawn and stored under a fixed key (a rerun reuses it); answers its public URL. */
async function storeImage(storage: FileStorage, image: SeedImage): Promise<string> {
  if (!(await storage.get(image.file)))
    await storage.put(image.file, garmentImage(image.kind, image.colour, image.back), 'image/png');
  return storage.url(image.file);
}

/** A region found by name, or made with the countries no other region holds; with its shipping options. */
async function seedRegion(ctx: Ctx, region: (typeof REGIONS)[number], report: SeedReport): Promise<string> {
  const existing = await one<{ id: string }>(
    ctx,
    sql`select id from regions where name = ${region.name} and deleted_at is null order by id limit 1`,
  );
  let id = existing?.id;
  if (id) report.skipped.push(`region ${region.name}`);
  else {
    const taken = await rows<{ iso_2: string }>(
      ctx.db,
      sql`select iso_2 from region_countries where iso_2 = any(${sql.param(region.countries)}::text[])`,
    );
    const free = region.countries.filter((c) => !taken.some((t) => t.iso_2 === c));
    id = (await createRegion(ctx, { ...region, countries: free })).id;
    report.created.push(`region ${region.name} (${free.join(', ')})`);
  }
  for (const option of SHIPPING) {
    const found = await one<{ id: string }>(
      ctx,
      sql`select id from shipping_options where name = ${option.name} and region_id = ${id} and deleted_at is null`,
    );
    if (found) report.skipped.push(`shipping ${option.name} (${region.name})`);
    else {
      await createShippingOption(ctx, { ...option, region_id: id });
      report.created.push(`shipping ${option.name} (${region.name})`);
    }
  }
  return id;
}
