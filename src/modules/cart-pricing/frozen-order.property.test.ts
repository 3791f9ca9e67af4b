import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { uniq } from '../checkout/checkout.testing.ts';
import { ok200, pricedProduct, promotion, shippingOption, taxedRegion } from './pricing.testing.ts';

/**
 * Random carts placed as orders over HTTP, then the shop changes everything that priced them
 * (the default rate, an override rate, whether prices include tax, a promotion's value): every
 * total of the order, of each line and of each shipping method reads the same as at placement.
 * The order's identities hold too (`total = subtotal - discount_subtotal + tax_total`, in
 * Medusa's other form `total = original_total - discount_total`), and no line total is negative.
 */

type Json = Record<string, unknown>;
const TOTAL = /(^|_)(sub)?total$/;

/** Every `…total` / `…subtotal` of the order, its lines and shipping methods, with their tax lines and adjustments. */
function figures(order: Json): Json {
  const pick = (o: Json) => Object.fromEntries(Object.entries(o).filter(([k]) => TOTAL.test(k)));
  const charge = (c: Json) => ({
    ...pick(c),
    unit_price: c.unit_price,
    amount: c.amount,
    tax_lines: ((c.tax_lines as Json[]) ?? []).map((l) => [l.code, l.rate]),
    adjustments: ((c.adjustments as Json[]) ?? []).map((a) => [a.code, a.amount]),
  });
  return {
    ...pick(order),
    items: ((order.items as Json[]) ?? []).map(charge),
    shipping_methods: ((order.shipping_methods as Json[]) ?? []).map(charge),
  };
}

/** The four products' prices (cents), the second of the reduced-rate type. */
const AMOUNTS = [1999, 350, 12345, 1] as const;

const close = (a: unknown, b: number) => Math.abs(Number(a) - b) < 1e-6;

describe('an order’s totals after placement', () => {
  let t: TestApp;
  const shop = {
    region: '',
    defaultRate: '',
    overrideRate: '',
    preference: '',
    percent: { id: '', code: '' },
    fixed: { id: '', code: '' },
    variants: [] as string[],
    option: '',
  };
  beforeAll(async () => {
    t = await startTestApp();
    const { region, taxRegion } = await taxedRegion(t, 'fr', 20);
    shop.region = region.id;
    shop.defaultRate = taxRegion.tax_rates[0].id;
    const { product_type: type } = await ok200(
      await t.admin('POST', '/admin/product-types', { value: `food-${uniq()}` }),
    );
    const { tax_rate } = await ok200(
      await t.admin('POST', '/admin/tax-rates', {
        tax_region_id: taxRegion.id,
        rate: 5.5,
        code: 'FR-RED',
        name: 'reduced',
        rules: [{ reference: 'product_type', reference_id: (type as { id: string }).id }],
      }),
    );
    shop.overrideRate = (tax_rate as { id: string }).id;
    const { price_preference } = await ok200(
      await t.admin('POST', '/admin/price-preferences', {
        attribute: 'currency_code',
        value: 'eur',
        is_tax_inclusive: false,
      }),
    );
    shop.preference = (price_preference as { id: string }).id;
    for (const [amount, extra] of [
      [AMOUNTS[0], {}],
      [AMOUNTS[1], { type_id: (type as { id: string }).id }],
      [AMOUNTS[2], {}],
      [AMOUNTS[3], {}],
    ] as const)
      shop.variants.push((await pricedProduct(t, amount, extra)).variants[0].id);
    shop.option = (await shippingOption(t, region.id, 490)).id;
    shop.percent = await promotion(t, {
      code: `PCT${uniq()}`,
      type: 'standard',
      application_method: { type: 'percentage', value: 15, target_type: 'items', allocation: 'across' },
    });
    shop.fixed = await promotion(t, {
      code: `FIX${uniq()}`,
      type: 'standard',
      application_method: { type: 'fixed', value: 700, currency_code: 'eur', target_type: 'order' },
    });
    await promotion(t, {
      code: `SHIP${uniq()}`,
      type: 'standard',
      is_automatic: true,
      rules: [{ attribute: 'item_total', operator: 'gte', values: ['5000'] }],
      application_method: { type: 'percentage', value: 100, target_type: 'shipping_methods', allocation: 'each' },
    });
  }, 180_000);
  afterAll(() => t?.close());

  const line = fc.record({ product: fc.nat({ max: 3 }), quantity: fc.integer({ min: 1, max: 6 }) });
  const scenario = fc.record({
    lines: fc.uniqueArray(line, { selector: (l) => l.product, minLength: 1, maxLength: 4 }),
    codes: fc.subarray(['percent', 'fixed'] as const),
    shipping: fc.boolean(),
    inclusive: fc.boolean(),
    after: fc.record({
      rate: fc.integer({ min: 0, max: 30 }),
      reduced: fc.integer({ min: 0, max: 10 }),
      inclusive: fc.boolean(),
      percent: fc.integer({ min: 1, max: 100 }),
    }),
  });

  it('never move when rates, tax-inclusion or promotions change later', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        // A cart the fixed 7.00 empties leaves the percentage code nothing to discount, and a code
        // that discounts nothing is refused as inapplicable (promotion_code_rules_unmet, the cart
        // unchanged): a refusal, not the frozen totals this property is about.
        const subtotal = s.lines.reduce((sum, l) => sum + AMOUNTS[l.product] * l.quantity, 0);
        fc.pre(!(s.codes.includes('fixed') && s.codes.includes('percent') && subtotal <= 700));
        // Each run starts from the percentage the precondition assumes: the run before changed it
        // (to as much as 100 %, which leaves the fixed code nothing to discount: refused, as above).
        await ok200(
          await t.admin('POST', `/admin/promotions/${shop.percent.id}`, { application_method: { value: 15 } }),
        );
        await ok200(
          await t.admin('POST', `/admin/price-preferences/${shop.preference}`, { is_tax_inclusive: s.inclusive }),
        );
        const { cart } = (await ok200(
          await t.store('POST', '/store/carts', {
            region_id: shop.region,
            email: `frozen-${uniq()}@example.fr`,
            items: s.lines.map((l) => ({ variant_id: shop.variants[l.product], quantity: l.quantity })),
          }),
        )) as unknown as { cart: { id: string } };
        if (s.shipping)
          await ok200(await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: shop.option }));
        if (s.codes.length)
          await ok200(
            await t.store('POST', `/store/carts/${cart.id}`, { promo_codes: s.codes.map((c) => shop[c].code) }),
          );
        const done = await ok200(await t.store('POST', `/store/carts/${cart.id}/complete`, {}));
        const id = (done.order as { id: string }).id;
        const read = async () => (await ok200(await t.admin('GET', `/admin/orders/${id}`))).order as Json;
        const o = await read();
        expect(o.total).toBe((done.order as Json).total);
        expect(close(o.total, Number(o.subtotal) - Number(o.discount_subtotal) + Number(o.tax_total))).toBe(true);
        expect(close(o.total, Number(o.original_total) - Number(o.discount_total))).toBe(true);
        expect(close(o.total, Number(o.item_total) + Number(o.shipping_total))).toBe(true);
        for (const c of [...(o.items as Json[]), ...(o.shipping_methods as Json[])]) {
          expect(Number(c.total)).toBeGreaterThanOrEqual(0);
          expect(Number(c.discount_subtotal ?? 0)).toBeLessThanOrEqual(Number(c.subtotal) + 1e-9);
        }

        // The shop changes everything that priced it.
        await ok200(await t.admin('POST', `/admin/tax-rates/${shop.defaultRate}`, { rate: s.after.rate }));
        await ok200(await t.admin('POST', `/admin/tax-rates/${shop.overrideRate}`, { rate: s.after.reduced }));
        await ok200(
          await t.admin('POST', `/admin/price-preferences/${shop.preference}`, { is_tax_inclusive: s.after.inclusive }),
        );
        await ok200(
          await t.admin('POST', `/admin/promotions/${shop.percent.id}`, {
            application_method: { value: s.after.percent },
          }),
        );

        const before = figures(o);
        // What is compared: the order's totals (item_, shipping_, original_, discount_…) and each charge's.
        expect(Object.keys(before).length).toBeGreaterThan(12);
        expect((before.items as Json[])[0]).toHaveProperty('tax_total');
        expect(figures(await read())).toEqual(before);
      }),
      { numRuns: 12 },
    );
  }, 300_000);
});
