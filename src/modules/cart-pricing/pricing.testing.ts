import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { defaultChannelId, uniq } from '../checkout/checkout.testing.ts';

/** Factories for tax and promotion tests (tests only), through the admin API. */

export async function ok200(res: { statusCode: number; body: string; json: () => unknown }) {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, never>;
}

/** A one-country region with its tax region and default rate. */
export async function taxedRegion(t: TestApp, country: string, rate: number, currency = 'eur') {
  const { region } = await ok200(
    await t.admin('POST', '/admin/regions', { name: `R ${uniq()}`, currency_code: currency, countries: [country] }),
  );
  const { tax_region } = await ok200(
    await t.admin('POST', '/admin/tax-regions', {
      country_code: country,
      default_tax_rate: { rate, code: 'VAT', name: `VAT ${rate}` },
    }),
  );
  return { region: region as { id: string }, taxRegion: tax_region as { id: string; tax_rates: { id: string }[] } };
}

export async function pricedProduct(t: TestApp, amount: number, extra: Record<string, unknown> = {}) {
  const { product } = await ok200(
    await t.admin('POST', '/admin/products', {
      title: `P ${uniq()}`,
      status: 'published',
      sales_channels: [{ id: await defaultChannelId(t) }],
      variants: [{ title: 'One', prices: [{ currency_code: 'eur', amount }], manage_inventory: false }],
      ...extra,
    }),
  );
  return product as { id: string; variants: { id: string }[] };
}

export async function promotion(t: TestApp, body: Record<string, unknown>) {
  const { promotion } = await ok200(await t.admin('POST', '/admin/promotions', { status: 'active', ...body }));
  return promotion as { id: string; code: string };
}

/**
 * The summer sale of docs/pricing.md: a collection with a shirt at 2975 in it, a mug at 1190
 * outside it, and a code taking 10 % off each item of the collection.
 */
export async function summerSale(t: TestApp) {
  const { collection } = await ok200(await t.admin('POST', '/admin/collections', { title: `Summer ${uniq()}` }));
  const collectionId = (collection as { id: string }).id;
  const shirt = await pricedProduct(t, 2975, { collection_id: collectionId });
  const mug = await pricedProduct(t, 1190);
  const code = `SUMMER${uniq()}`;
  await promotion(t, {
    code,
    type: 'standard',
    application_method: {
      type: 'percentage',
      value: 10,
      target_type: 'items',
      allocation: 'each',
      max_quantity: 100,
      target_rules: [{ attribute: 'items.product.collection_id', operator: 'in', values: [collectionId] }],
    },
  });
  return { shirt, mug, code };
}

/** A flat-rate shipping option of the region, named `<name> <unique>`. */
export async function shippingOption(t: TestApp, regionId: string, amount: number, name = 'Ship') {
  const { shipping_option } = await ok200(
    await t.admin('POST', '/admin/shipping-options', { name: `${name} ${uniq()}`, region_id: regionId, amount }),
  );
  return shipping_option as { id: string };
}
