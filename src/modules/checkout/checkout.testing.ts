import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';

/** Factories for cart, checkout and order tests (tests only). They go through the admin API. */

export const uniq = () => randomBytes(4).toString('hex');

// Each region needs countries of its own; tests in a file share the database, so hand them out once.
const COUNTRIES =
  'de fr it es nl be at pt ie fi se dk no pl cz sk hu ro bg gr hr si ee lv lt lu mt cy ch gb us ca mx br ar cl jp kr cn in au nz za'.split(
    ' ',
  );
let nextCountry = 0;
export const freshCountry = () => COUNTRIES[nextCountry++ % COUNTRIES.length];

export async function makeRegion(t: TestApp, opts: { currency?: string; countries?: number; name?: string } = {}) {
  const countries = Array.from({ length: opts.countries ?? 1 }, freshCountry);
  const res = await t.admin('POST', '/admin/regions', {
    name: opts.name ?? `Region ${uniq()}`,
    currency_code: opts.currency ?? 'eur',
    countries,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().region as { id: string; name: string; currency_code: string; countries: { iso_2: string }[] };
}

export async function defaultChannelId(t: TestApp): Promise<string> {
  const [row] = await rows<{ id: string }>(
    t.database.db,
    sql`select id from sales_channels where deleted_at is null order by id limit 1`,
  );
  return row.id;
}

export interface ProductOpts {
  stock?: number;
  prices?: { currency_code: string; amount: number }[];
  manage_inventory?: boolean;
  allow_backorder?: boolean;
  status?: string;
  channels?: string[];
}

/** A published product in the default channel with one variant (10 in stock, 1500 eur unless told). */
export async function makeProduct(t: TestApp, opts: ProductOpts = {}) {
  const res = await t.admin('POST', '/admin/products', {
    title: `Shirt ${uniq()}`,
    status: opts.status ?? 'published',
    thumbnail: 'https://img.example/shirt.png',
    sales_channels: (opts.channels ?? [await defaultChannelId(t)]).map((id) => ({ id })),
    variants: [
      {
        title: 'M',
        sku: `SKU-${uniq()}`,
        prices: opts.prices ?? [{ currency_code: 'eur', amount: 1500 }],
        inventory_quantity: opts.stock ?? 10,
        manage_inventory: opts.manage_inventory ?? true,
        allow_backorder: opts.allow_backorder ?? false,
      },
    ],
  });
  expect(res.statusCode, res.body).toBe(200);
  const product = res.json().product;
  return { product, variant: product.variants[0] as { id: string; title: string; sku: string } };
}

export async function makeCart(t: TestApp, body: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await t.store('POST', '/store/carts', body, { headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().cart;
}

export async function stockOf(t: TestApp, variantId: string): Promise<number> {
  const [row] = await rows<{ q: number }>(
    t.database.db,
    sql`select inventory_quantity as q from product_variants where id = ${variantId}`,
  );
  return row.q;
}

/** Outbox events about one resource id, oldest first. */
export function eventsFor(t: TestApp, id: string) {
  return rows<{ name: string; payload: Record<string, unknown> }>(
    t.database.db,
    sql`select name, payload from outbox where payload->>'id' = ${id} order by id`,
  );
}

export async function countRows(
  t: TestApp,
  table: 'orders' | 'payments' | 'order_line_items',
  where = sql`true`,
): Promise<number> {
  const [row] = await rows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where ${where}`,
  );
  return row.n;
}

export async function makeChannel(t: TestApp): Promise<string> {
  const res = await t.admin('POST', '/admin/sales-channels', { name: `Channel ${uniq()}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sales_channel.id;
}

/** A publishable key linked to exactly these channels (none is allowed); returns its token. */
export async function makeKey(t: TestApp, channelIds: string[]): Promise<string> {
  const res = await t.admin('POST', '/admin/api-keys', { title: `Key ${uniq()}`, type: 'publishable' });
  expect(res.statusCode, res.body).toBe(200);
  const key = res.json().api_key;
  if (channelIds.length) {
    const linked = await t.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { add: channelIds });
    expect(linked.statusCode, linked.body).toBe(200);
  }
  return key.token;
}
