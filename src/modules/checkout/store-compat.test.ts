import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { defaultChannelId, makeCart, makeChannel, makeKey, makeRegion, uniq } from './checkout.testing.ts';
import { Medusa } from '../../../test/medusa-sdk.ts';

/** Medusa's side routes a storefront calls: they answer in Medusa's shapes instead of 404/400. */

async function sizedProduct(t: TestApp, channels?: string[], money = (minor: number) => minor) {
  const res = await t.admin('POST', '/admin/products', {
    title: `Tee ${uniq()}`,
    status: 'published',
    options: [{ title: 'Size', values: ['S', 'M'] }],
    sales_channels: (channels ?? [await defaultChannelId(t)]).map((id) => ({ id })),
    variants: [
      {
        title: 'S',
        options: { Size: 'S' },
        prices: [{ currency_code: 'eur', amount: money(1250) }],
        inventory_quantity: 3,
      },
      {
        title: 'M',
        options: { Size: 'M' },
        prices: [{ currency_code: 'eur', amount: money(1350) }],
        inventory_quantity: 4,
      },
    ],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product;
}

for (const units of ['minor', 'major'] as const) {
  describe(`store compatibility routes (AMOUNT_UNITS=${units})`, () => {
    let t: TestApp;
    let baseUrl: string;
    let sdk: InstanceType<typeof Medusa>;
    const money = (minor: number) => (units === 'major' ? minor / 100 : minor);
    beforeAll(async () => {
      t = await startTestApp({ env: { AMOUNT_UNITS: units, STORE_LOCALES: 'en-US,fr-FR' } });
      baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
      sdk = new Medusa({ baseUrl, publishableKey: t.publishableKey });
    });
    afterAll(() => t.close());

    it('product options: list (by product) and retrieve through the SDK; hidden products stay hidden', async () => {
      const p = await sizedProduct(t);
      const hidden = await sizedProduct(t, [await makeChannel(t)]);
      const { product_options, count } = await sdk.store.productOption.list({ product_id: p.id } as never);
      expect(count).toBe(1);
      expect(product_options[0]).toMatchObject({
        id: p.options[0].id,
        title: 'Size',
        product_id: p.id,
        values: [
          { value: 'S', option_id: p.options[0].id },
          { value: 'M', option_id: p.options[0].id },
        ],
      });
      const one = await sdk.store.productOption.retrieve(p.options[0].id);
      expect(one.product_option.title).toBe('Size');
      const none = await t.store('GET', `/store/product-options/${hidden.options[0].id}`);
      expect(none.statusCode).toBe(404);
      const all = await sdk.store.productOption.list({ limit: 100 });
      expect(all.product_options.map((o: { id: string }) => o.id)).not.toContain(hidden.options[0].id);
    });

    it('product variants: one by id (with its calculated price) and a list by product, in the units of the shop', async () => {
      const region = await makeRegion(t);
      const p = await sizedProduct(t, undefined, money);
      const [s, m] = p.variants;
      const res = await t.store('GET', `/store/product-variants/${m.id}?region_id=${region.id}&fields=*images`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().variant).toMatchObject({
        id: m.id,
        title: 'M',
        inventory_quantity: 4,
        prices: [{ currency_code: 'eur', amount: money(1350) }],
        calculated_price: { calculated_amount: money(1350), currency_code: 'eur' },
        options: [{ value: 'M', option: { title: 'Size' } }],
      });
      const listed = await t.store('GET', `/store/product-variants?product_id=${p.id}&limit=1&offset=1`);
      expect(listed.json()).toMatchObject({ count: 2, limit: 1, offset: 1 });
      expect(listed.json().variants.map((v: { id: string }) => v.id)).toEqual([m.id]);
      const byIds = await t.store('GET', `/store/product-variants?id[]=${s.id}&id[]=${m.id}`);
      expect(byIds.json().count).toBe(2);
      expect((await t.store('GET', '/store/product-variants/variant_nope')).statusCode).toBe(404);
      const otherKey = await makeKey(t, [await makeChannel(t)]);
      expect((await t.store('GET', `/store/product-variants/${m.id}`, undefined, { key: otherKey })).statusCode).toBe(
        404,
      );
    });

    it('locales through the SDK, and the cart keeps its locale', async () => {
      const { locales } = await sdk.store.locale.list();
      expect(locales).toEqual([
        { code: 'en-US', name: 'American English' },
        { code: 'fr-FR', name: 'French (France)' },
      ]);
      await makeRegion(t);
      const { cart } = await sdk.store.cart.create({ locale: 'fr-FR' } as never);
      expect((cart as { locale?: string }).locale).toBe('fr-FR');
      const { cart: updated } = await sdk.store.cart.update(cart.id, { locale: 'en-US' } as never);
      expect((updated as { locale?: string }).locale).toBe('en-US');
      const bad = await t.store('POST', `/store/carts/${cart.id}`, { locale: 'not a locale!' });
      expect(bad.statusCode).toBe(400);
    });

    it("calculate: a flat option's price for the cart; an option of another region is refused", async () => {
      const region = await makeRegion(t);
      const other = await makeRegion(t);
      const post = await t.admin('POST', '/admin/shipping-options', {
        name: 'Post',
        region_id: region.id,
        amount: money(490),
      });
      const away = await t.admin('POST', '/admin/shipping-options', {
        name: 'Away',
        region_id: other.id,
        amount: money(100),
      });
      const cart = await makeCart(t, { region_id: region.id });
      const { shipping_option } = await sdk.store.fulfillment.calculate(post.json().shipping_option.id, {
        cart_id: cart.id,
      });
      expect(shipping_option).toMatchObject({
        id: post.json().shipping_option.id,
        name: 'Post',
        amount: money(490),
        calculated_price: {
          calculated_amount: money(490),
          currency_code: 'eur',
          is_calculated_price_tax_inclusive: false,
        },
      });
      const refused = await t.store('POST', `/store/shipping-options/${away.json().shipping_option.id}/calculate`, {
        cart_id: cart.id,
      });
      expect(refused.statusCode).toBe(400);
      const missing = await t.store('POST', '/store/shipping-options/so_nope/calculate', { cart_id: cart.id });
      expect(missing.statusCode).toBe(404);
    });
  });
}
