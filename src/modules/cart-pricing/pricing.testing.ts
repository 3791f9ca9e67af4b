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

export async function shippingOption(t: TestApp, regionId: string, amount: number) {
  const { shipping_option } = await ok200(
    await t.admin('POST', '/admin/shipping-options', { name: `Ship ${uniq()}`, region_id: regionId, amount }),
  );
  return shipping_option as { id: string };
}
