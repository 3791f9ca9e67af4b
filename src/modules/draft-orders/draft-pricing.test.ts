import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { uniq } from '../checkout/checkout.testing.ts';
import { ok200, pricedProduct, promotion, shippingOption, taxedRegion } from '../cart-pricing/pricing.testing.ts';

/**
 * A draft order is taxed and discounted as a cart with the same lines, address, shipping and
 * codes: the same figures, through the same pricing, and they are what the converted order charges.
 */

let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

type Priced = {
  total: number;
  tax_total: number;
  discount_total: number;
  item_total: number;
  shipping_total: number;
  items: {
    variant_id: string | null;
    tax_lines: { rate: number }[];
    adjustments: { code: string; amount: number }[];
  }[];
  summary: { current_order_total: number; pending_difference: number };
};

const address = { first_name: 'Ada', address_1: '1 Storgatan', city: 'Stockholm', country_code: 'se' };

describe('draft orders priced as carts', () => {
  it('taxes by the region, discounts by codes added and removed in an edit, as a cart would; the order charges it', async () => {
    const { region } = await taxedRegion(t, 'se', 25);
    const shirt = (await pricedProduct(t, 5000)).variants[0].id;
    const socks = (await pricedProduct(t, 2000)).variants[0].id;
    const option = (await shippingOption(t, region.id, 700)).id;
    const code = `DRAFT10-${uniq()}`;
    await promotion(t, {
      code,
      type: 'standard',
      application_method: { type: 'percentage', value: 10, target_type: 'items', allocation: 'each', max_quantity: 10 },
    });

    const { draft_order: draft } = await sdk.admin.draftOrder.create({
      region_id: region.id,
      email: `taxed-${uniq()}@example.com`,
      items: [{ variant_id: shirt, quantity: 1 }],
      shipping_methods: [{ shipping_option_id: option } as never],
      shipping_address: address,
    });
    // 5000 + 25 %, shipping 700 + 25 %.
    expect(draft).toMatchObject({ total: 6250 + 875, tax_total: 1250 + 175 });
    expect((draft as unknown as Priced).items[0].tax_lines.map((l) => l.rate)).toEqual([25]);

    await sdk.admin.draftOrder.beginEdit(draft.id);
    await sdk.admin.draftOrder.addItems(draft.id, { items: [{ variant_id: socks, quantity: 2 }] });
    // Not a code: refused by name, the edit as it was.
    const unknown = await t.admin('POST', `/admin/draft-orders/${draft.id}/edit/promotions`, {
      promo_codes: ['NOPE-404'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'promotion_code_not_found' });
    const { draft_order_preview: discounted } = await sdk.admin.draftOrder.addPromotions(draft.id, {
      promo_codes: [code],
    });
    // Items 9000 less 10 % (900), + 25 % = 10125; shipping 875.
    const preview = discounted as unknown as Priced;
    expect(preview).toMatchObject({ total: 11000, discount_total: 900 * 1.25, tax_total: 2025 + 175 });
    expect(preview.summary.current_order_total).toBe(11000);
    expect(preview.items.find((i) => i.variant_id === socks)!.adjustments.map((a) => a.amount)).toEqual([400]);
    // Nothing applies until the edit is confirmed.
    expect((await sdk.admin.draftOrder.retrieve(draft.id)).draft_order.total).toBe(7125);

    // Removed, then added again: the edit ends with the code.
    const removed = await sdk.admin.draftOrder.removePromotions(draft.id, { promo_codes: [code] });
    expect((removed.draft_order_preview as unknown as Priced).total).toBe(11250 + 875);
    await sdk.admin.draftOrder.addPromotions(draft.id, { promo_codes: [code] });
    await sdk.admin.draftOrder.requestEdit(draft.id);
    const confirmed = (await sdk.admin.draftOrder.confirmEdit(draft.id)).draft_order_preview as unknown as Priced;
    expect(confirmed).toMatchObject({ total: 11000 });
    const kept = (await sdk.admin.draftOrder.retrieve(draft.id)).draft_order as unknown as Priced;
    expect(kept).toMatchObject({ total: 11000, tax_total: 2200, discount_total: 1125 });

    // The same lines, address, shipping and code in a cart: the same figures.
    const { cart } = await ok200(
      await t.store('POST', '/store/carts', {
        region_id: region.id,
        email: `cart-${uniq()}@example.com`,
        shipping_address: address,
        items: [
          { variant_id: shirt, quantity: 1 },
          { variant_id: socks, quantity: 2 },
        ],
      }),
    );
    const cartId = (cart as { id: string }).id;
    await ok200(await t.store('POST', `/store/carts/${cartId}/shipping-methods`, { option_id: option }));
    const priced = (await ok200(await t.store('POST', `/store/carts/${cartId}/promotions`, { promo_codes: [code] })))
      .cart as unknown as Priced;
    for (const key of ['total', 'tax_total', 'discount_total', 'item_total', 'shipping_total'] as const)
      expect(kept[key], key).toBe(priced[key]);

    // Converted: the order charges what the draft showed, and the code is used once.
    const { order } = await sdk.admin.draftOrder.convertToOrder(draft.id, { mark_as_paid: true } as never);
    expect(order).toMatchObject({ total: 11000, payment_status: 'captured' });
    expect(order.summary).toMatchObject({ paid_total: 11000, pending_difference: 0 });
    const usage = await rows<{ code: string; amount: string }>(
      t.database.db,
      sql`select code, amount::text as amount from promotion_usages where order_id = ${order.id}`,
    );
    expect(usage.map((u) => [u.code, Number(u.amount)])).toEqual([[code, 900]]);
  }, 120_000);

  it('refuses a code that discounts nothing, and codes outside an edit, writing nothing', async () => {
    const { region } = await taxedRegion(t, 'fi', 24);
    const product = (await pricedProduct(t, 1000)).variants[0].id;
    const code = `BIG-${uniq()}`;
    await promotion(t, {
      code,
      type: 'standard',
      application_method: {
        type: 'percentage',
        value: 10,
        target_type: 'items',
        allocation: 'each',
        max_quantity: 10,
        target_rules: [{ attribute: 'items.product.id', operator: 'in', values: ['prod_none'] }],
      },
    });
    const { draft_order: draft } = await sdk.admin.draftOrder.create({
      region_id: region.id,
      email: `none-${uniq()}@example.com`,
      items: [{ variant_id: product, quantity: 1 }],
    });
    // No edit begun.
    const outside = await t.admin('POST', `/admin/draft-orders/${draft.id}/edit/promotions`, { promo_codes: [code] });
    expect(outside.statusCode).toBe(400);
    await sdk.admin.draftOrder.beginEdit(draft.id);
    const unmet = await t.admin('POST', `/admin/draft-orders/${draft.id}/edit/promotions`, { promo_codes: [code] });
    expect(unmet.statusCode).toBe(400);
    expect(unmet.json()).toMatchObject({ code: 'draft_promotion_rules_unmet' });
    const actions = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from order_change_actions where order_id = ${draft.id}`,
    );
    expect(actions[0].n).toBe(0);
    const empty = await t.admin('POST', `/admin/draft-orders/${draft.id}/edit/promotions`, { promo_codes: [] });
    expect(empty.statusCode).toBe(400);
  }, 120_000);

  it('takes promo_codes at creation, checked as in an edit; a refused one writes no draft', async () => {
    const { region } = await taxedRegion(t, 'dk', 25);
    const product = (await pricedProduct(t, 2000)).variants[0].id;
    const code = `NOW10-${uniq()}`;
    await promotion(t, {
      code,
      type: 'standard',
      application_method: { type: 'percentage', value: 10, target_type: 'items', allocation: 'each', max_quantity: 10 },
    });
    const body = {
      region_id: region.id,
      email: `codes-${uniq()}@example.com`,
      items: [{ variant_id: product, quantity: 1 }],
      shipping_address: { ...address, country_code: 'dk' },
    };
    const created = await ok200(await t.admin('POST', '/admin/draft-orders', { ...body, promo_codes: [code] }));
    // 2000 less 10 %, + 25 %.
    expect(created.draft_order).toMatchObject({ total: 2250, discount_total: 250, version: 2 });

    const drafts = async () =>
      (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from orders where is_draft_order`))[0].n;
    const before = await drafts();
    const refused = await t.admin('POST', '/admin/draft-orders', { ...body, promo_codes: ['NOPE-404'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'promotion_code_not_found' });
    expect(await drafts()).toBe(before);
  }, 120_000);
});
