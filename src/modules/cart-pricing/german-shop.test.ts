import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { uniq } from '../checkout/checkout.testing.ts';
import { ok200, pricedProduct, promotion, shippingOption, taxedRegion, summerSale } from './pricing.testing.ts';

/**
 * The worked example of docs/pricing.md: a German shop, 19 % VAT included in prices, a 10 % code
 * on a collection, free shipping over €50 (automatic). Totals as Medusa computes them, then frozen
 * on the order.
 */
describe('a German shop: VAT included, a collection code, free shipping over €50', () => {
  let t: TestApp;
  let sdk: { storefront: Sdk; dashboard: Sdk };
  beforeAll(async () => {
    t = await startTestApp();
    sdk = await medusaSdks(t);
  });
  afterAll(() => t?.close());

  it('prices the cart to the cent and keeps the order’s totals when rates change later', async () => {
    const { region, taxRegion } = await taxedRegion(t, 'de', 19);
    await ok200(
      await t.admin('POST', '/admin/price-preferences', {
        attribute: 'currency_code',
        value: 'eur',
        is_tax_inclusive: true,
      }),
    );
    const { shirt, mug, code } = await summerSale(t);
    const ship = await shippingOption(t, region.id, 595);
    await promotion(t, {
      code: `FREESHIP${uniq()}`,
      type: 'standard',
      is_automatic: true,
      rules: [{ attribute: 'item_total', operator: 'gte', values: '5000' }],
      application_method: { type: 'percentage', value: 100, target_type: 'shipping_methods', allocation: 'each' },
    });

    // A one-country region's cart is taxed from the start: Germany is its address.
    const { cart: created } = await sdk.storefront.store.cart.create({
      region_id: region.id,
      items: [
        { variant_id: shirt.variants[0].id, quantity: 2 },
        { variant_id: mug.variants[0].id, quantity: 1 },
      ],
    });
    expect(created.shipping_address?.country_code).toBe('de');
    expect(created.tax_total).toBeCloseTo(1140, 6); // 950 + 190, before any discount
    await sdk.storefront.store.cart.addShippingMethod(created.id, { option_id: ship.id });
    const { cart } = await sdk.storefront.store.cart.update(created.id, {
      promo_codes: [code],
      email: 'kunde@example.de',
    });

    const shirtLine = cart.items!.find((i) => i.variant_id === shirt.variants[0].id)!;
    expect(shirtLine.is_tax_inclusive).toBe(true);
    expect(shirtLine.adjustments).toEqual([expect.objectContaining({ code, amount: 500 })]);
    expect(shirtLine.tax_lines).toEqual([expect.objectContaining({ code: 'VAT', rate: 19 })]);
    expect(cart.shipping_methods![0].adjustments![0]).toMatchObject({ amount: 500 });
    // Each figure of the worked example's table in docs/pricing.md, line by line.
    type LineFigures = { subtotal: number; discount_subtotal: number; tax_total: number; total: number };
    const figures = (l: unknown) => {
      const { subtotal, discount_subtotal, tax_total, total } = l as LineFigures;
      return { subtotal, discount_subtotal, tax_total, total };
    };
    const mugLine = cart.items!.find((i) => i.variant_id === mug.variants[0].id)!;
    expect(figures(shirtLine)).toEqual({ subtotal: 5000, discount_subtotal: 500, tax_total: 855, total: 5355 });
    expect(figures(mugLine)).toEqual({ subtotal: 1000, discount_subtotal: 0, tax_total: 190, total: 1190 });
    expect(figures(cart.shipping_methods![0])).toEqual({
      subtotal: 500,
      discount_subtotal: 500,
      tax_total: 0,
      total: 0,
    });
    expect(cart.promotions!.map((p) => p.code)).toEqual([code, expect.stringMatching(/^FREESHIP/)]);
    const totals = {
      subtotal: cart.subtotal,
      item_subtotal: cart.item_subtotal,
      item_tax_total: cart.item_tax_total,
      item_total: cart.item_total,
      shipping_subtotal: cart.shipping_subtotal,
      shipping_total: cart.shipping_total,
      shipping_tax_total: cart.shipping_tax_total,
      discount_total: cart.discount_total,
      tax_total: cart.tax_total,
      total: cart.total,
    };
    expect(totals).toEqual({
      subtotal: 6500,
      item_subtotal: 6000,
      item_tax_total: 1045,
      item_total: 6545,
      shipping_subtotal: 500,
      shipping_total: 0,
      shipping_tax_total: 0,
      discount_total: 1190, // with the discount's VAT, as Medusa 2.21
      tax_total: 1045,
      total: 6545,
    });
    expect(cart.payment_collection ?? null).toBeNull();

    const done = await sdk.storefront.store.cart.complete(cart.id);
    expect(done.type).toBe('order');
    const order = (done as unknown as { order: Record<string, unknown> & { id: string } }).order;
    expect(order).toMatchObject({ total: 6545, tax_total: 1045, discount_total: 1190, subtotal: 6500 });

    // A later rate change or promotion change never moves a placed order.
    await ok200(await t.admin('POST', `/admin/tax-rates/${taxRegion.tax_rates[0].id}`, { rate: 7 }));
    const { order: again } = await ok200(await t.admin('GET', `/admin/orders/${order.id}`));
    expect(again).toMatchObject({ total: 6545, tax_total: 1045, discount_total: 1190 });
  });

  it('refuses unknown, inactive and inapplicable codes with a 400 naming them, leaving the cart as it was', async () => {
    const { region } = await taxedRegion(t, 'at', 20);
    const item = await pricedProduct(t, 1000);
    const { cart } = await sdk.storefront.store.cart.create({
      region_id: region.id,
      items: [{ variant_id: item.variants[0].id, quantity: 1 }],
    });
    const draft = await promotion(t, {
      code: `DRAFT${uniq()}`,
      status: 'draft',
      type: 'standard',
      application_method: { type: 'fixed', value: 100, currency_code: 'eur', target_type: 'order' },
    });
    const elsewhere = await promotion(t, {
      code: `USD${uniq()}`,
      type: 'standard',
      rules: [{ attribute: 'currency_code', operator: 'eq', values: ['usd'] }],
      application_method: { type: 'fixed', value: 100, currency_code: 'eur', target_type: 'order' },
    });
    for (const [code, why] of [
      ['NOPE', 'is invalid'],
      [draft.code, 'is not active'],
      [elsewhere.code, 'cannot be applied'],
    ]) {
      const res = await t.store('POST', `/store/carts/${cart.id}`, { promo_codes: [code] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid_data', message: expect.stringContaining(code) });
      expect(res.json().message).toContain(why);
    }
    const after = (await ok200(await t.store('GET', `/store/carts/${cart.id}`))).cart as Record<string, unknown>;
    // EUR prices include tax in this shop (the first test's preference): 1000 is 833.33 + 20 %.
    expect(after).toMatchObject({ promotions: [], discount_total: 0, total: 1000 });

    const fixed = await promotion(t, {
      code: `TENOFF${uniq()}`,
      type: 'standard',
      application_method: { type: 'fixed', value: 1000, currency_code: 'eur', target_type: 'order' },
    });
    const { cart: discounted } = await sdk.storefront.store.cart.addPromotions(cart.id, { promo_codes: [fixed.code] });
    expect(discounted).toMatchObject({ total: 0 }); // never below zero
    expect((discounted as unknown as { discount_subtotal: number }).discount_subtotal).toBeCloseTo(833.333333, 5);
    const { cart: removed } = await sdk.storefront.store.cart.removePromotions(cart.id, { promo_codes: [fixed.code] });
    expect(removed).toMatchObject({ discount_total: 0, total: 1000, promotions: [] });
  });

  it('manages tax regions, rates with overrides and price preferences through the SDK', async () => {
    const { tax_region: fr } = await sdk.dashboard.admin.taxRegion.create({
      country_code: 'fr',
      default_tax_rate: { rate: 20, code: 'TVA', name: 'TVA' },
    });
    const reduced = await sdk.dashboard.admin.taxRate.create({
      tax_region_id: fr.id,
      name: 'Books',
      code: 'TVA5',
      rate: 5.5,
      rules: [{ reference: 'product_type', reference_id: 'ptyp_books' }],
    });
    expect(reduced.tax_rate).toMatchObject({
      rate: 5.5,
      rules: [expect.objectContaining({ reference: 'product_type' })],
    });
    const { tax_regions } = await sdk.dashboard.admin.taxRegion.list({ country_code: 'fr' });
    expect(tax_regions[0].tax_rates).toHaveLength(2);
    const pref = await sdk.dashboard.admin.pricePreference.create({
      attribute: 'currency_code',
      value: 'usd',
      is_tax_inclusive: true,
    });
    expect(pref.price_preference).toMatchObject({ attribute: 'currency_code', value: 'usd', is_tax_inclusive: true });
    const gone = await sdk.dashboard.admin.taxRegion.delete(fr.id);
    expect(gone).toMatchObject({ id: fr.id, object: 'tax_region', deleted: true });
  });
});
