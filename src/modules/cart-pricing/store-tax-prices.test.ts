import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { ok200, pricedProduct, taxedRegion } from './pricing.testing.ts';

/** `calculated_price` with and without tax for a named country, as Medusa 2.21 answers it. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Calc = Record<string, number | boolean>;
const calculated = async (query: string, productId: string) => {
  const res = await t.store('GET', `/store/products?id[]=${productId}&fields=*variants.calculated_price&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().products[0].variants[0].calculated_price as Calc;
};

describe('store prices with tax', () => {
  it('adds the rate of the country (and of the product type) on prices without tax, and takes it out of prices with it', async () => {
    const { region, taxRegion } = await taxedRegion(t, 'pt', 23);
    const { product_type: type } = await ok200(
      await t.admin('POST', '/admin/product-types', { value: `books-${Date.now()}` }),
    );
    await ok200(
      await t.admin('POST', '/admin/tax-rates', {
        tax_region_id: taxRegion.id,
        rate: 6,
        code: 'PT-RED',
        name: 'reduced',
        rules: [{ reference: 'product_type', reference_id: (type as { id: string }).id }],
      }),
    );
    const plain = await pricedProduct(t, 10000);
    const book = await pricedProduct(t, 10000, { type_id: (type as { id: string }).id });

    expect(await calculated(`region_id=${region.id}&country_code=pt`, plain.id)).toMatchObject({
      calculated_amount: 10000,
      calculated_amount_with_tax: 12300,
      calculated_amount_without_tax: 10000,
      original_amount_with_tax: 12300,
    });
    expect(await calculated(`region_id=${region.id}&country_code=pt`, book.id)).toMatchObject({
      calculated_amount_with_tax: 10600,
      calculated_amount_without_tax: 10000,
    });
    // Without a country nothing is taxed (Medusa leaves the two out; here they equal the amount).
    expect(await calculated(`region_id=${region.id}`, plain.id)).toMatchObject({
      calculated_amount_with_tax: 10000,
      calculated_amount_without_tax: 10000,
    });

    await ok200(
      await t.admin('POST', '/admin/price-preferences', {
        attribute: 'currency_code',
        value: 'eur',
        is_tax_inclusive: true,
      }),
    );
    const inclusive = await calculated(`region_id=${region.id}&country_code=pt`, plain.id);
    expect(inclusive.calculated_amount_with_tax).toBe(10000);
    expect(inclusive.calculated_amount_without_tax).toBeCloseTo(10000 / 1.23, 6);
  });
});
