import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { ok200, pricedProduct } from './pricing.testing.ts';

/**
 * A region whose `automatic_taxes` is off: its carts carry no tax until the storefront asks with
 * `POST /store/carts/{id}/taxes` (Medusa's calculate-taxes step), and are taxed from then on.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Cart = {
  id: string;
  tax_total: number;
  total: number;
  items: { quantity: number; tax_lines: { rate: number; code: string }[] }[];
};

describe('taxes on demand', () => {
  it('taxes a cart of a region without automatic taxes only once asked, then on every change', async () => {
    const { region } = await ok200(
      await t.admin('POST', '/admin/regions', {
        name: 'Ireland (manual taxes)',
        currency_code: 'eur',
        countries: ['ie'],
        automatic_taxes: false,
      }),
    );
    await ok200(
      await t.admin('POST', '/admin/tax-regions', {
        country_code: 'ie',
        default_tax_rate: { rate: 23, code: 'IE23', name: 'VAT' },
      }),
    );
    const item = await pricedProduct(t, 1000);
    const created = (
      await ok200(
        await t.store('POST', '/store/carts', {
          region_id: (region as { id: string }).id,
          items: [{ variant_id: item.variants[0].id, quantity: 1 }],
        }),
      )
    ).cart as Cart;
    expect(created).toMatchObject({ tax_total: 0, total: 1000 });
    expect(created.items[0].tax_lines).toEqual([]);

    const taxed = (await ok200(await t.store('POST', `/store/carts/${created.id}/taxes`, {}))).cart as Cart;
    expect(taxed).toMatchObject({ tax_total: 230, total: 1230 });
    expect(taxed.items[0].tax_lines).toEqual([expect.objectContaining({ code: 'IE23', rate: 23 })]);

    // Asked once, the cart stays taxed as it changes.
    const line = (await ok200(await t.store('GET', `/store/carts/${created.id}`))).cart as Cart & {
      items: { id: string }[];
    };
    const more = (
      await ok200(await t.store('POST', `/store/carts/${created.id}/line-items/${line.items[0].id}`, { quantity: 3 }))
    ).cart as Cart;
    expect(more).toMatchObject({ tax_total: 690, total: 3690 });

    const missing = await t.store('POST', '/store/carts/cart_nope/taxes', {});
    expect(missing.statusCode).toBe(404);
  });
});
