import { ADMIN, call, expectOk } from './lib.ts';

/** Eight materials: each is in one title out of eight (12.5 %), the benchmark's broad `q` term. */
const WORDS = ['linen', 'cotton', 'wool', 'denim', 'leather', 'silk', 'canvas', 'velvet'];
const ITEMS = ['shirt', 'jacket', 'scarf', 'boots', 'hat', 'trousers', 'dress', 'bag', 'belt', 'socks', 'gloves'];

/** A word found in exactly one product's title (the selective `q` term for product `i`). */
export const uniqueCode = (i: number) => `n${String(i).padStart(6, '0')}`;

export interface Seeded {
  admin: Record<string, string>;
  regionId: string;
  salesChannelId: string;
  productIds: string[];
}

/** Product `i` as a merchant would create it: a Size option with S and M variants, EUR prices, stock. */
function product(i: number, salesChannelId: string) {
  const word = WORDS[i % WORDS.length];
  const item = ITEMS[Math.floor(i / WORDS.length) % ITEMS.length];
  const title = `${word[0].toUpperCase()}${word.slice(1)} ${item} ${uniqueCode(i)}`;
  return {
    title,
    handle: `bench-product-${i}`,
    description: `A ${word} ${item} made to last.`,
    status: 'published',
    sales_channels: [{ id: salesChannelId }],
    options: [{ title: 'Size', values: ['S', 'M'] }],
    variants: ['S', 'M'].map((size, k) => ({
      title: size,
      sku: `BENCH-${i}-${size}`,
      options: { Size: size },
      manage_inventory: true,
      inventory_quantity: 1_000_000,
      prices: [{ currency_code: 'eur', amount: 1000 + (i % 90) * 100 + k * 500 }],
    })),
  };
}

/** Logs in as the bench admin and creates the EUR region (the server's first start made the admin and channel). */
export async function seedShop(base: string): Promise<Omit<Seeded, 'productIds'>> {
  const { token } = await expectOk(call(base, 'POST', '/auth/user/emailpass', {}, ADMIN));
  const admin = { authorization: `Bearer ${token}` };
  const { region } = await expectOk(
    call(base, 'POST', '/admin/regions', admin, { name: 'Europe', currency_code: 'eur', countries: ['de', 'fr'] }),
  );
  const { sales_channels } = await expectOk(call(base, 'GET', '/admin/sales-channels', admin));
  return { admin, regionId: region.id, salesChannelId: sales_channels[0].id };
}

/**
 * Creates products `from`..`to` (inclusive) through `POST /admin/products/batch`, `batchSize` per
 * request and `concurrency` requests in flight (the bodies are exactly what `POST /admin/products`
 * takes), reporting progress every `every` products.
 */
export async function seedProducts(
  base: string,
  shop: Omit<Seeded, 'productIds'>,
  from: number,
  to: number,
  opts: { concurrency?: number; every?: number; batchSize?: number } = {},
): Promise<string[]> {
  const ids: string[] = new Array(to - from + 1);
  const size = opts.batchSize ?? 100;
  const every = opts.every ?? 0;
  let next = from;
  let done = 0;
  await Promise.all(
    Array.from({ length: opts.concurrency ?? 3 }, async () => {
      while (next <= to) {
        const first = next;
        const last = Math.min(to, first + size - 1);
        next = last + 1;
        const create = [];
        for (let i = first; i <= last; i++) create.push(product(i, shop.salesChannelId));
        const res = await expectOk(call(base, 'POST', '/admin/products/batch', shop.admin, { create }));
        // `created` is in the request's order.
        res.created.forEach((p: { id: string }, k: number) => {
          ids[first - from + k] = p.id;
        });
        const before = done;
        done += create.length;
        if (every && Math.floor(done / every) > Math.floor(before / every))
          console.error(`  … ${done} products created`);
      }
    }),
  );
  return ids;
}
