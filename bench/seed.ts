import { sql } from 'drizzle-orm';
import type { Database } from '../src/platform/db/database.ts';

const WORDS = [
  'linen',
  'cotton',
  'wool',
  'denim',
  'leather',
  'silk',
  'canvas',
  'velvet',
  'suede',
  'tweed',
  'fleece',
  'satin',
];
const ITEMS = [
  'shirt',
  'jacket',
  'scarf',
  'boots',
  'hat',
  'trousers',
  'dress',
  'bag',
  'belt',
  'socks',
  'gloves',
  'coat',
];

/**
 * Seeds `n` published products in the default sales channel, two variants each with a EUR price,
 * in batches of set-based INSERTs (generate_series), so 100k products take seconds, not minutes.
 */
export async function seedProducts(database: Database, n: number, channelId: string): Promise<void> {
  const words = `array[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const items = `array[${ITEMS.map((w) => `'${w}'`).join(',')}]`;
  const batch = 10_000;
  for (let from = 1; from <= n; from += batch) {
    const to = Math.min(n, from + batch - 1);
    await database.db.transaction(async (tx) => {
      await tx.execute(
        sql.raw(`insert into products (id, title, handle, description, status, created_at, updated_at)
          select 'prod_' || lpad(i::text, 26, '0'),
                 initcap((${words})[1 + i % 12] || ' ' || (${items})[1 + (i / 12) % 12]) || ' ' || i,
                 'bench-product-' || i,
                 'A ' || (${words})[1 + (i / 7) % 12] || ' ' || (${items})[1 + i % 12] || ' made to last, item number ' || i,
                 'published', now(), now()
          from generate_series(${from}, ${to}) i`),
      );
      await tx.execute(
        sql.raw(`insert into product_sales_channels (product_id, sales_channel_id)
          select 'prod_' || lpad(i::text, 26, '0'), '${channelId}' from generate_series(${from}, ${to}) i`),
      );
      await tx.execute(
        sql.raw(`insert into product_variants (id, product_id, title, sku, manage_inventory, inventory_quantity, variant_rank, created_at, updated_at)
          select 'variant_' || lpad(i::text, 24, '0') || v, 'prod_' || lpad(i::text, 26, '0'),
                 case v when 1 then 'S' else 'M' end, 'SKU-' || i || '-' || v, true, 100, v, now(), now()
          from generate_series(${from}, ${to}) i, generate_series(1, 2) v`),
      );
      await tx.execute(
        sql.raw(`insert into prices (id, variant_id, currency_code, amount, created_at, updated_at)
          select 'price_' || lpad(i::text, 24, '0') || v, 'variant_' || lpad(i::text, 24, '0') || v, 'eur', 1000 + (i % 90) * 100 + v * 50, now(), now()
          from generate_series(${from}, ${to}) i, generate_series(1, 2) v`),
      );
    });
  }
  await database.db.execute(sql`analyze`);
}
