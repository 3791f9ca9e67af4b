import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, signUpCustomer } from '../customers/customers.testing.ts';
import { ok200, pricedProduct, promotion, shippingOption, taxedRegion } from './pricing.testing.ts';

/**
 * Promotions on the customer's groups (`customer.groups.id`) and the tax-inclusive preference of a
 * region, as Medusa 2.21 applies them (measured on the peer: docs/pricing.md#parity-with-medusa).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('a promotion for a customer group', () => {
  it('applies automatically to members only, and follows the customer into and out of the group', async () => {
    const { region } = await taxedRegion(t, 'nl', 21);
    const product = await pricedProduct(t, 10000);
    const group = (await ok200(await t.admin('POST', '/admin/customer-groups', { name: `Members ${Date.now()}` })))
      .customer_group as { id: string };
    await promotion(t, {
      code: `MEMBERS-${Date.now()}`,
      type: 'standard',
      is_automatic: true,
      rules: [{ attribute: 'customer.groups.id', operator: 'in', values: [group.id, 'cusgroup_other'] }],
      application_method: { type: 'percentage', value: 10, target_type: 'items', allocation: 'each', max_quantity: 5 },
    });
    const member = await signUpCustomer(t);
    const stranger = await signUpCustomer(t);
    await ok200(await t.admin('POST', `/admin/customer-groups/${group.id}/customers`, { add: [member.customer.id] }));

    const cartOf = async (token: string) => {
      const { cart } = await ok200(
        await t.store(
          'POST',
          '/store/carts',
          { region_id: region.id, items: [{ variant_id: product.variants[0].id, quantity: 2 }] },
          { headers: bearer(token) },
        ),
      );
      return cart as { id: string; discount_subtotal: number; items: { adjustments: { amount: number }[] }[] };
    };
    const mine = await cartOf(member.token);
    expect(mine.discount_subtotal).toBe(2000);
    expect(mine.items[0].adjustments.map((a) => a.amount)).toEqual([2000]);
    const theirs = await cartOf(stranger.token);
    expect(theirs.discount_subtotal).toBe(0);

    // Out of the group: the next change of the cart drops the discount.
    await ok200(
      await t.admin('POST', `/admin/customer-groups/${group.id}/customers`, { remove: [member.customer.id] }),
    );
    const after = (
      await ok200(await t.store('GET', `/store/carts/${mine.id}`, undefined, { headers: bearer(member.token) }))
    ).cart as { discount_subtotal: number };
    expect(after.discount_subtotal).toBe(0);
  });
});

describe("a region's tax-inclusive preference", () => {
  it("makes its shipping amounts include tax, over the currency's preference", async () => {
    const { region } = await taxedRegion(t, 'be', 25, 'dkk');
    const product = await pricedProduct(t, 0, {
      variants: [{ title: 'One', prices: [{ currency_code: 'dkk', amount: 12500 }], manage_inventory: false }],
    });
    const option = await shippingOption(t, region.id, 1000);
    await ok200(
      await t.admin('POST', '/admin/price-preferences', {
        attribute: 'currency_code',
        value: 'dkk',
        is_tax_inclusive: true,
      }),
    );
    const cart = (
      await ok200(
        await t.store('POST', '/store/carts', {
          region_id: region.id,
          items: [{ variant_id: product.variants[0].id, quantity: 1 }],
        }),
      )
    ).cart as { id: string };
    const ship = async () =>
      (await ok200(await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: option.id })))
        .cart as Record<string, number> & { shipping_methods: { is_tax_inclusive: boolean }[] };

    // The currency's preference holds for the item and, without a region preference, the shipping.
    let priced = await ship();
    expect(priced).toMatchObject({ item_subtotal: 10000, item_tax_total: 2500, shipping_subtotal: 800 });

    // A region preference (false, as Medusa makes with each region) leaves the item to its currency.
    await ok200(
      await t.admin('POST', '/admin/price-preferences', {
        attribute: 'region_id',
        value: region.id,
        is_tax_inclusive: false,
      }),
    );
    priced = await ship();
    expect(priced.shipping_methods[0].is_tax_inclusive).toBe(false);
    expect(priced).toMatchObject({
      item_subtotal: 10000,
      shipping_subtotal: 1000,
      shipping_tax_total: 250,
      total: 12500 + 1250,
    });
  });
});
