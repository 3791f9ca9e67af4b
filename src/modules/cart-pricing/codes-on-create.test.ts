import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { uniq } from '../checkout/checkout.testing.ts';
import { ok200, promotion, shippingOption, taxedRegion, summerSale } from './pricing.testing.ts';

/**
 * `promo_codes` on `POST /store/carts` (Medusa's create-cart workflow applies them with the cart)
 * and the edge cases of codes on `POST /store/carts/{id}` and `/promotions`, beside Medusa 2.21's
 * answers: an unknown code is its 400 "The promotion code X is invalid"; a code that exists but
 * cannot discount the cart is a 400 naming it here (Medusa leaves it out with a 200: a deliberate
 * difference, docs/pricing.md); a code named twice applies once; an empty list removes them all.
 */
type Json = Record<string, unknown>;
type CartJson = Json & {
  id: string;
  items: (Json & { variant_id: string; adjustments?: Json[]; tax_lines?: Json[] })[];
  promotions: { code: string }[];
};

const TOTALS = [
  'original_total',
  'item_subtotal',
  'item_tax_total',
  'item_total',
  'subtotal',
  'discount_total',
  'discount_subtotal',
  'discount_tax_total',
  'tax_total',
  'total',
] as const;
const totalsOf = (c: Json) => Object.fromEntries(TOTALS.map((k) => [k, c[k]]));
// What a line's discount is, whichever way its codes came (ids and dates differ).
const linesOf = (c: CartJson) =>
  c.items.map((i) => ({
    variant_id: i.variant_id,
    subtotal: i.subtotal,
    discount_total: i.discount_total,
    tax_total: i.tax_total,
    total: i.total,
    adjustments: (i.adjustments ?? []).map((a) => ({ code: a.code, amount: a.amount, promotion_id: a.promotion_id })),
    tax_lines: (i.tax_lines ?? []).map((l) => ({ code: l.code, rate: l.rate })),
  }));

describe('promo_codes on cart create, and the edge cases of codes', () => {
  let t: TestApp;
  let sdk: Sdk;
  let region: { id: string };
  let shirt: { id: string; variants: { id: string }[] };
  let mug: { id: string; variants: { id: string }[] };
  let code: string;
  let autoCode: string;
  const cartCount = async () => (await rows<{ n: number }>(t.ctx.db, sql`select count(*)::int as n from carts`))[0].n;
  const items = () => [
    { variant_id: shirt.variants[0].id, quantity: 2 },
    { variant_id: mug.variants[0].id, quantity: 1 },
  ];
  const refused = async (res: { statusCode: number; body: string; json: () => Json }, c: string, errorCode: string) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ type: 'invalid_data', code: errorCode, message: expect.stringContaining(c) });
  };

  beforeAll(async () => {
    t = await startTestApp();
    sdk = (await medusaSdks(t)).storefront;
    ({ region } = await taxedRegion(t, 'de', 19));
    ({ shirt, mug, code } = await summerSale(t));
    // An automatic promotion of the region: it joins both carts by itself, after the code.
    autoCode = `AUTO${uniq()}`;
    await promotion(t, {
      code: autoCode,
      type: 'standard',
      is_automatic: true,
      rules: [{ attribute: 'region_id', operator: 'in', values: [region.id] }],
      application_method: { type: 'fixed', value: 300, currency_code: 'eur', target_type: 'order' },
    });
  });
  afterAll(() => t?.close());

  it('creates a cart with its codes in one call (SDK), priced to the cent as the update path prices it', async () => {
    const { cart: once } = await sdk.store.cart.create({
      region_id: region.id,
      email: 'once@example.com',
      items: items(),
      promo_codes: [code],
    });
    const { cart: plain } = await sdk.store.cart.create({
      region_id: region.id,
      email: 'two@example.com',
      items: items(),
    });
    const { cart: updated } = await sdk.store.cart.update(plain.id, { promo_codes: [code] });
    const [a, b] = [once as unknown as CartJson, updated as unknown as CartJson];

    expect(a.promotions.map((p) => p.code)).toEqual([code, autoCode]);
    expect(totalsOf(a)).toEqual(totalsOf(b));
    expect(linesOf(a)).toEqual(linesOf(b));
    // The 10 % code takes 5.95 off the two shirts (59.50 before tax); the automatic 3.00 spreads over what is left.
    const shirtLine = a.items.find((i) => i.variant_id === shirt.variants[0].id)!;
    expect(shirtLine.adjustments).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code, amount: 595 }),
        expect.objectContaining({ code: autoCode }),
      ]),
    );
    expect(a.discount_total).toBeGreaterThan(595);
    expect(a.tax_total).toBe(b.tax_total);

    // Read back, and once placed, the order keeps what the created cart showed.
    const { cart: read } = await sdk.store.cart.retrieve(a.id);
    expect(totalsOf(read as unknown as Json)).toEqual(totalsOf(a));
    const ship = await shippingOption(t, region.id, 500);
    await sdk.store.cart.addShippingMethod(a.id, { option_id: ship.id });
    await sdk.store.cart.addShippingMethod(b.id, { option_id: ship.id });
    const placed = await Promise.all([a.id, b.id].map((id) => sdk.store.cart.complete(id)));
    const orders = placed.map((d) => (d as unknown as { order: Json }).order);
    expect(totalsOf(orders[0])).toEqual(totalsOf(orders[1]));
    expect(orders[0]).toMatchObject({ discount_total: a.discount_total });
  });

  it('applies two codes at once (buy 2 shirts get a mug, a fixed amount across) as the update path does', async () => {
    const b2g1 = await promotion(t, {
      code: `B2G1${uniq()}`,
      type: 'buyget',
      application_method: {
        type: 'percentage',
        value: 100,
        target_type: 'items',
        allocation: 'each',
        max_quantity: 1,
        apply_to_quantity: 1,
        buy_rules_min_quantity: 2,
        buy_rules: [{ attribute: 'items.product.id', operator: 'in', values: [shirt.id] }],
        target_rules: [{ attribute: 'items.product.id', operator: 'in', values: [mug.id] }],
      },
    });
    const across = await promotion(t, {
      code: `ACROSS${uniq()}`,
      type: 'standard',
      application_method: {
        type: 'fixed',
        value: 700,
        currency_code: 'eur',
        target_type: 'items',
        allocation: 'across',
      },
    });
    const codes = [across.code, b2g1.code];
    const created = (await ok200(
      await t.store('POST', '/store/carts', { region_id: region.id, items: items(), promo_codes: codes }),
    )) as unknown as { cart: CartJson };
    const plain = (await ok200(
      await t.store('POST', '/store/carts', { region_id: region.id, items: items() }),
    )) as unknown as { cart: CartJson };
    const updated = (await ok200(
      await t.store('POST', `/store/carts/${plain.cart.id}`, { promo_codes: codes }),
    )) as unknown as { cart: CartJson };
    expect(created.cart.promotions.map((p) => p.code).sort()).toEqual([...codes, autoCode].sort());
    expect(totalsOf(created.cart)).toEqual(totalsOf(updated.cart));
    expect(linesOf(created.cart)).toEqual(linesOf(updated.cart));
    const mugLine = created.cart.items.find((i) => i.variant_id === mug.variants[0].id)!;
    expect(mugLine.adjustments).toEqual(expect.arrayContaining([expect.objectContaining({ code: b2g1.code })]));
  });

  it('writes the cart, its codes and cart.created together, over HTTP', async () => {
    const res = await t.store('POST', '/store/carts', { region_id: region.id, items: items(), promo_codes: [code] });
    const { cart } = (await ok200(res)) as unknown as { cart: CartJson };
    const stored = await rows<{ promotion_id: string }>(
      t.ctx.db,
      sql`select promotion_id from cart_promotions where cart_id = ${cart.id}`,
    );
    expect(stored).toHaveLength(1);
    const events = await rows<{ payload: { promotions: { code: string }[] } }>(
      t.ctx.db,
      sql`select payload from outbox where name = 'cart.created' and payload->>'id' = ${cart.id}`,
    );
    expect(events.map((e) => e.payload.promotions.map((p) => p.code))).toEqual([[code, autoCode]]);
  });

  it('applies a code named twice (any case) once, and [] as no code', async () => {
    const twice = (await ok200(
      await t.store('POST', '/store/carts', {
        region_id: region.id,
        items: items(),
        promo_codes: [code, code.toLowerCase()],
      }),
    )) as unknown as { cart: CartJson };
    const single = (await ok200(
      await t.store('POST', '/store/carts', { region_id: region.id, items: items(), promo_codes: [code] }),
    )) as unknown as { cart: CartJson };
    expect(twice.cart.promotions.map((p) => p.code)).toEqual([code, autoCode]);
    expect(totalsOf(twice.cart)).toEqual(totalsOf(single.cart));
    const none = (await ok200(
      await t.store('POST', '/store/carts', { region_id: region.id, items: items(), promo_codes: [] }),
    )) as unknown as { cart: CartJson };
    expect(none.cart.promotions.map((p) => p.code)).toEqual([autoCode]);
  });

  it('refuses an unknown, inactive, expired or inapplicable code with a 400 naming it, and makes no cart', async () => {
    const draft = await promotion(t, {
      code: `DRAFT${uniq()}`,
      status: 'draft',
      type: 'standard',
      application_method: { type: 'fixed', value: 100, currency_code: 'eur', target_type: 'order' },
    });
    const { campaign } = await ok200(
      await t.admin('POST', '/admin/campaigns', {
        name: 'Over',
        campaign_identifier: `over-${uniq()}`,
        starts_at: new Date(t.clock.now().getTime() - 10 * 86_400_000).toISOString(),
        ends_at: new Date(t.clock.now().getTime() - 86_400_000).toISOString(),
      }),
    );
    const expired = await promotion(t, {
      code: `OVER${uniq()}`,
      type: 'standard',
      campaign_id: (campaign as { id: string }).id,
      application_method: { type: 'fixed', value: 100, currency_code: 'eur', target_type: 'order' },
    });
    const big = await promotion(t, {
      code: `BIG${uniq()}`,
      type: 'standard',
      rules: [{ attribute: 'item_total', operator: 'gte', values: '1000000' }],
      application_method: { type: 'fixed', value: 100, currency_code: 'eur', target_type: 'order' },
    });
    const before = await cartCount();
    for (const [c, errorCode] of [
      ['NOPE', 'promotion_code_not_found'],
      [draft.code, 'promotion_code_inactive'],
      [expired.code, 'promotion_code_expired'],
      [big.code, 'promotion_code_rules_unmet'],
    ]) {
      const res = await t.store('POST', '/store/carts', {
        region_id: region.id,
        items: items(),
        promo_codes: [code, c],
      });
      await refused(res, c, errorCode);
    }
    expect((await t.store('POST', '/store/carts', { promo_codes: ['NOPE'] })).json()).toMatchObject({
      message: 'The promotion code NOPE is invalid', // Medusa 2.21's message, word for word
    });
    // Through the SDK the storefront gets the same message to show.
    await expect(sdk.store.cart.create({ region_id: region.id, promo_codes: [expired.code] })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(expired.code),
    });
    expect(await cartCount()).toBe(before);
  });

  it('refuses a code whose campaign budget is used up, on create and on update', async () => {
    const { campaign } = await ok200(
      await t.admin('POST', '/admin/campaigns', {
        name: 'Once',
        campaign_identifier: `once-${uniq()}`,
        budget: { type: 'usage', limit: 1 },
      }),
    );
    const once = await promotion(t, {
      code: `ONCE${uniq()}`,
      type: 'standard',
      campaign_id: (campaign as { id: string }).id,
      application_method: { type: 'fixed', value: 100, currency_code: 'eur', target_type: 'order' },
    });
    const { cart: first } = await sdk.store.cart.create({
      region_id: region.id,
      items: items(),
      promo_codes: [once.code],
      email: 'first@example.com',
    });
    const ship = await shippingOption(t, region.id, 500);
    await sdk.store.cart.addShippingMethod(first.id, { option_id: ship.id });
    expect((await sdk.store.cart.complete(first.id)).type).toBe('order');

    const before = await cartCount();
    await refused(
      await t.store('POST', '/store/carts', { region_id: region.id, items: items(), promo_codes: [once.code] }),
      once.code,
      'promotion_code_budget_used',
    );
    expect(await cartCount()).toBe(before);
    const { cart } = await sdk.store.cart.create({ region_id: region.id, items: items() });
    await refused(
      await t.store('POST', `/store/carts/${cart.id}`, { promo_codes: [once.code] }),
      once.code,
      'promotion_code_budget_used',
    );
  });

  it('on an existing cart: a code twice applies once, [] removes them all (update and POST /promotions), unknown removals pass', async () => {
    const { cart } = await sdk.store.cart.create({ region_id: region.id, items: items() });
    const { cart: twice } = await sdk.store.cart.update(cart.id, { promo_codes: [code, code] });
    expect(twice.promotions!.map((p) => p.code)).toEqual([code, autoCode]);

    const { cart: cleared } = await sdk.store.cart.update(cart.id, { promo_codes: [] });
    expect(cleared.promotions!.map((p) => p.code)).toEqual([autoCode]);

    await sdk.store.cart.addPromotions(cart.id, { promo_codes: [code] });
    // Medusa's POST /promotions with an empty list replaces the codes with none.
    const { cart: emptied } = await sdk.store.cart.addPromotions(cart.id, { promo_codes: [] });
    expect(emptied.promotions!.map((p) => p.code)).toEqual([autoCode]);

    await sdk.store.cart.addPromotions(cart.id, { promo_codes: [code] });
    const { cart: kept } = await sdk.store.cart.removePromotions(cart.id, { promo_codes: ['NOPE'] });
    expect(kept.promotions!.map((p) => p.code)).toEqual([code, autoCode]);

    // A refused code leaves the codes applied as they were.
    await refused(
      await t.store('POST', `/store/carts/${cart.id}`, { promo_codes: ['NOPE'] }),
      'NOPE',
      'promotion_code_not_found',
    );
    const { cart: after } = await sdk.store.cart.retrieve(cart.id);
    expect(after.promotions!.map((p) => p.code)).toEqual([code, autoCode]);
  });
});
