import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { hashToken } from '../api-keys/lookup.ts';

/** Factories and probes shared by the products test files (tests only). */

export const uniq = () => randomBytes(4).toString('hex');

export async function makeProduct(t: TestApp, body: Record<string, unknown> = {}) {
  const res = await t.admin('POST', '/admin/products', { title: `Product ${uniq()}`, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product;
}

export async function defaultChannelId(t: TestApp): Promise<string> {
  const [row] = await rows<{ id: string }>(
    t.database.db,
    sql`select id from sales_channels where deleted_at is null order by id limit 1`,
  );
  return row.id;
}

export async function insertChannel(t: TestApp, name = `Channel ${uniq()}`): Promise<string> {
  const id = newId('sc');
  const now = t.clock.now().toISOString();
  await t.database.db.execute(
    sql`insert into sales_channels (id, name, created_at, updated_at) values (${id}, ${name}, ${now}, ${now})`,
  );
  return id;
}

/** A publishable key linked to exactly these channels (none is allowed), inserted directly. */
export async function insertPublishableKey(t: TestApp, channelIds: string[]): Promise<string> {
  const id = newId('apk');
  const token = `pk_${randomBytes(32).toString('hex')}`;
  const now = t.clock.now().toISOString();
  await t.database.db.execute(
    sql`insert into api_keys (id, title, type, token, token_hash, redacted, created_at, updated_at)
        values (${id}, 'test key', 'publishable', ${token}, ${hashToken(token)}, 'pk_***', ${now}, ${now})`,
  );
  for (const sc of channelIds) {
    await t.database.db.execute(
      sql`insert into api_key_sales_channels (api_key_id, sales_channel_id) values (${id}, ${sc})`,
    );
  }
  return token;
}

export async function insertRegion(
  t: TestApp,
  currency: string,
  opts: { taxInclusive?: boolean } = {},
): Promise<string> {
  const id = newId('reg');
  const now = t.clock.now().toISOString();
  await t.database.db.execute(
    sql`insert into regions (id, name, currency_code, is_tax_inclusive, created_at, updated_at)
        values (${id}, ${`Region ${uniq()}`}, ${currency}, ${opts.taxInclusive ?? false}, ${now}, ${now})`,
  );
  return id;
}

export async function outboxEvents(t: TestApp, productId?: string) {
  return rows<{ name: string; payload: Record<string, unknown> }>(
    t.database.db,
    productId
      ? sql`select name, payload from outbox where payload->>'id' = ${productId} order by id`
      : sql`select name, payload from outbox where name like 'product.%' order by id`,
  );
}

/** Reads are JSON rendered by SQL and bypass the serializer: check them against the declared schema. */
export function expectSchema(schema: TSchema, body: unknown): void {
  const issues = [...Value.Errors(schema, body)].map((e) => `${e.instancePath} ${e.message}`);
  expect(issues).toEqual([]);
}

export async function makeCollection(t: TestApp, body: Record<string, unknown> = {}) {
  const res = await t.admin('POST', '/admin/collections', { title: `Collection ${uniq()}`, ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().collection as { id: string; handle: string; title: string };
}

/** Active and public unless the body says otherwise (Medusa's default is inactive). */
export async function makeCategory(t: TestApp, body: Record<string, unknown> = {}) {
  const res = await t.admin('POST', '/admin/product-categories', {
    name: `Category ${uniq()}`,
    is_active: true,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product_category as { id: string; handle: string; name: string; rank: number };
}

/** A product as an importer sends it in a batch: published in `channel`, sizes S and M as variants at 1500 eur, 3 of each in stock. */
export const batchItem = (channel: string, title: string, extra: Record<string, unknown> = {}) => ({
  title,
  status: 'published',
  sales_channels: [{ id: channel }],
  options: [{ title: 'Size', values: ['S', 'M'] }],
  variants: ['S', 'M'].map((size) => ({
    title: size,
    sku: `${title}-${size}`,
    options: { Size: size },
    inventory_quantity: 3,
    prices: [{ currency_code: 'eur', amount: 1500 }],
  })),
  ...extra,
});
