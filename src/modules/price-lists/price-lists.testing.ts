import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { makeProduct, uniq } from '../products/products.testing.ts';

/** Factories shared by the price list test files (tests only). */

/** A published product in the default channel with one variant priced `amount` in each currency given. */
export async function pricedProduct(t: TestApp, channel: string, prices: Record<string, number>) {
  const product = await makeProduct(t, {
    title: `Priced ${uniq()}`,
    status: 'published',
    sales_channels: [{ id: channel }],
    variants: [
      { title: 'one', prices: Object.entries(prices).map(([currency_code, amount]) => ({ currency_code, amount })) },
    ],
  });
  return { product, variant: product.variants[0] as { id: string; prices: { id: string; currency_code: string }[] } };
}

export async function makePriceList(t: TestApp, body: Record<string, unknown>) {
  const res = await t.admin('POST', '/admin/price-lists', {
    title: `List ${uniq()}`,
    description: 'test',
    status: 'active',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().price_list as { id: string; prices: { id: string }[] };
}

export async function makeGroup(t: TestApp, customerIds: string[] = []) {
  const res = await t.admin('POST', '/admin/customer-groups', { name: `Group ${uniq()}` });
  expect(res.statusCode, res.body).toBe(200);
  const group = res.json().customer_group as { id: string };
  if (customerIds.length) {
    const linked = await t.admin('POST', `/admin/customer-groups/${group.id}/customers`, { add: customerIds });
    expect(linked.statusCode, linked.body).toBe(200);
  }
  return group;
}
