import { sql } from 'drizzle-orm';
import type { Ctx } from '../platform/context.ts';
import { rows } from '../platform/db/database.ts';
import { ensureDefaultStoreAccess } from '../modules/api-keys/defaults.ts';
import { createCategory } from '../modules/categories/service.ts';
import { createProduct } from '../modules/products/service.ts';
import { createRegion } from '../modules/regions/service.ts';
import { createShippingOption } from '../modules/shipping-options/service.ts';
import { CATEGORIES, PRODUCTS, REGION, SHIPPING, STOCK, type SeedProduct } from './seed-data.ts';

export interface SeedReport {
  regionId: string;
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
 * (the region by name, options by name in it, products by handle) is left as it is.
 */
export async function seedStore(ctx: Ctx): Promise<SeedReport> {
  const report: SeedReport = { regionId: '', created: [], skipped: [] };
  await ensureDefaultStoreAccess(ctx);
  const channel = await one<{ id: string }>(
    ctx,
    sql`select id from sales_channels where deleted_at is null order by created_at, id limit 1`,
  );

  const existing = await one<{ id: string }>(
    ctx,
    sql`select id from regions where name = ${REGION.name} and deleted_at is null order by id limit 1`,
  );
  if (existing) {
    report.regionId = existing.id;
    report.skipped.push(`region ${REGION.name}`);
  } else {
    const taken = await rows<{ iso_2: string }>(
      ctx.db,
      sql`select iso_2 from region_countries where iso_2 = any(${sql.param(REGION.countries)}::text[])`,
    );
    const free = REGION.countries.filter((c) => !taken.some((t) => t.iso_2 === c));
    report.regionId = (await createRegion(ctx, { ...REGION, countries: free })).id;
    report.created.push(`region ${REGION.name} (${free.join(', ')})`);
  }

  for (const option of SHIPPING) {
    const found = await one<{ id: string }>(
      ctx,
      sql`select id from shipping_options where name = ${option.name} and region_id = ${report.regionId} and deleted_at is null`,
    );
    if (found) report.skipped.push(`shipping ${option.name}`);
    else {
      await createShippingOption(ctx, { ...option, region_id: report.regionId });
      report.created.push(`shipping ${option.name}`);
    }
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
    await createProduct(ctx, {
      title: p.title,
      handle: p.handle,
      description: p.description,
      status: 'published',
      thumbnail: p.images[0],
      images: p.images.map((url) => ({ url })),
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
