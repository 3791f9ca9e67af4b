import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { seedStore } from '../../cli/seed.ts';
import { storageFor } from '../uploads/storage.ts';
import { checkoutAddress, storefront, type Json } from './storefront.testing.ts';
import { Medusa } from '../../../test/medusa-sdk.ts';

/**
 * Medusa's Next.js starter, page by page, as a guest and as a signed-in customer, against a
 * seeded shop speaking whole currency units (AMOUNT_UNITS=major): the storefront's own calls,
 * query strings and `fields`, through @medusajs/js-sdk over real HTTP.
 *
 * Every page's header and footer list the collections and categories (with the storefront's own
 * `fields`); the category page lists products with `category_id[]`.
 */

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestApp({ env: { AMOUNT_UNITS: 'major' } });
  await seedStore(t.ctx, storageFor(t.config.storage, t.config.publicUrl));
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => t.close());

const newStorefront = () =>
  storefront(
    new Medusa({ baseUrl, publishableKey: t.publishableKey, auth: { type: 'jwt', jwtTokenStorageMethod: 'nostore' } }),
  );

/** Home → product → cart → checkout → order confirmed; returns the confirmed order as its page reads it. */
async function shop(sf: ReturnType<typeof newStorefront>, country: string, existingCartId?: string) {
  // Middleware and every page: the regions, to map the URL's country to a region.
  const region = (await sf.listRegions()).find((r: Json) => r.countries.some((c: Json) => c.iso_2 === country));
  expect(region, `a region for ${country}`).toBeDefined();
  expect(await sf.listLocales()).toEqual([{ code: 'en-US', name: 'American English' }]);

  // Header and footer of every page: collections and the category tree.
  const collections = await sf.listCollections();
  expect(collections.map((c: Json) => c.title).sort()).toEqual(['Latest Drops', 'Weekly Picks']);
  // Home page: each collection's products (the starter's featured rails).
  for (const c of collections) {
    const rail = await sf.listProducts(region.id, { collection_id: [c.id] });
    expect(rail.products.length, c.title).toBeGreaterThan(0);
  }
  const categories = await sf.listCategories();
  expect(categories.map((c: Json) => c.name).sort()).toEqual(['Merch', 'Pants', 'Shirts', 'Sweatshirts']);
  // Category page: the category by handle, then its products.
  const shirts = await sf.retrieveCategoryByHandle('shirts');
  const inShirts = await sf.listProducts(region.id, { category_id: [shirts.id] });
  expect(inShirts.products.map((p: Json) => p.handle)).toEqual(['t-shirt']);

  // Home and store pages: the product grid.
  const home = await sf.listProducts(region.id);
  expect(home.count).toBe(4);
  const page2 = await sf.listProducts(region.id, {}, 2, 3);
  expect(page2.products).toHaveLength(1);
  for (const p of home.products) expect(p.variants[0].calculated_price.calculated_amount).toBe(10);

  // Product page: by handle, then the variant picked from its options.
  const { products } = await sf.listProducts(region.id, { handle: 't-shirt' });
  expect(products).toHaveLength(1);
  const tee = products[0];
  const size = tee.options.find((o: Json) => o.title === 'Size');
  const variant = tee.variants.find((v: Json) =>
    v.options.some((o: Json) => o.option_id === size.id && o.value === 'M'),
  );
  expect(variant.inventory_quantity).toBeGreaterThanOrEqual(2); // 100 seeded, less what earlier journeys bought
  expect(variant.calculated_price).toMatchObject({ calculated_amount: 10, currency_code: 'eur' });

  // Add to cart: the cart is made on first add (getOrSetCart), with the shopper's locale.
  const cartId = existingCartId ?? (await sf.createCart(region.id, 'en-US')).id;
  await sf.addToCart(cartId, variant.id, 2);
  let cart = await sf.retrieveCart(cartId);
  expect(cart).toMatchObject({ region_id: region.id, currency_code: 'eur', item_total: 20, total: 20 });
  expect(cart.items[0]).toMatchObject({ quantity: 2, unit_price: 10, total: 20, variant: { id: variant.id } });
  expect(cart.items[0].product.handle).toBe('t-shirt');

  // Checkout, address step: shipping = billing, the email.
  const address = checkoutAddress(country);
  cart = await sf.updateCart(cartId, {
    shipping_address: address,
    billing_address: address,
    email: cart.email ?? 'guest-shopper@example.com',
  });
  // Delivery step: the region's options; a flat option's calculated price is its amount.
  const options = await sf.listCartShippingMethods(cartId);
  expect(options.map((o: Json) => [o.name, o.amount])).toEqual([
    ['Standard Shipping', 10],
    ['Express Shipping', 15],
  ]);
  const calculated = await sf.calculateShipping(options[1].id, cartId);
  expect(calculated.calculated_price.calculated_amount).toBe(15);
  await sf.setShippingMethod(cartId, options[0].id);
  // Payment step.
  const providers = await sf.listPaymentProviders(region.id);
  expect(providers.map((p: Json) => p.id)).toContain('pp_system_default');
  cart = await sf.retrieveCart(cartId);
  expect(cart).toMatchObject({ shipping_total: 10, total: 30 });
  expect(cart.shipping_methods[0].name).toBe('Standard Shipping');
  await sf.initiatePaymentSession(cart, 'pp_system_default');
  // Review step: place the order, then the order-confirmed page.
  const placed = await sf.placeOrder(cartId);
  expect(placed.shipping_address.country_code).toBe(country);
  const order = await sf.retrieveOrder(placed.id);
  expect(order).toMatchObject({
    id: placed.id,
    display_id: expect.any(Number),
    email: cart.email,
    item_total: 20,
    shipping_total: 10,
    total: 30,
    shipping_address: { first_name: 'Grace', city: 'Berlin', country_code: country },
  });
  expect(order.items[0]).toMatchObject({
    product_title: 'Medusa T-Shirt',
    unit_price: 10,
    quantity: 2,
    variant: { id: variant.id, title: variant.title },
    product: { id: tee.id, handle: 't-shirt' },
  });
  expect(order.shipping_methods[0]).toMatchObject({ name: 'Standard Shipping', total: 10 });
  expect(order.payment_collections[0].payments[0]).toMatchObject({ provider_id: 'pp_system_default', amount: 30 });
  return order;
}

describe("Medusa's Next.js starter against Emporium (AMOUNT_UNITS=major)", () => {
  it('a guest shops from home to order confirmed, and anyone with the link sees the confirmation', async () => {
    const guest = newStorefront();
    const order = await shop(guest, 'de');
    expect(order.customer_id).toBeNull();
    const stranger = newStorefront();
    expect((await stranger.retrieveOrder(order.id)).display_id).toBe(order.display_id);
  });

  it('a shopper signs up mid-checkout, saves an address, orders, and finds both on the account pages', async () => {
    const sf = newStorefront();
    const region = (await sf.listRegions())[0];
    const cart = await sf.createCart(region.id, 'en-US');
    const email = `journey-${Date.now()}@example.com`;
    await sf.signup({ email, password: 'journey-password-1', first_name: 'Grace', last_name: 'Hopper', phone: '' });
    await sf.transferCart(cart.id);
    const me = await sf.retrieveCustomer();
    expect(me).toMatchObject({ email, first_name: 'Grace', addresses: [] });

    // Account → Addresses: add one as the default for shipping and billing.
    const saved = await sf.addCustomerAddress({
      ...checkoutAddress('fr'),
      is_default_shipping: true,
      is_default_billing: true,
    });
    expect(saved.customer.addresses).toHaveLength(1);
    const variant = await sf.retrieveVariant(
      (await sf.listProducts(region.id, { handle: 'sweatshirt' })).products[0].variants[0].id,
    );
    expect(variant.calculated_price ?? null).toBeNull(); // no region given: prices only
    expect(variant.prices.find((p: Json) => p.currency_code === 'eur').amount).toBe(10);

    const order = await shop(sf, 'fr', cart.id);
    expect(order.customer_id).toBe(me.id);
    expect(order.email).toBe(email);

    // Account → Orders and an order's details.
    const orders = await sf.listOrders();
    expect(orders.map((o: Json) => o.id)).toEqual([order.id]);
    expect(orders[0].items[0].variant.id).toBe(order.items[0].variant.id);
    expect((await sf.retrieveOrder(order.id)).total).toBe(30);

    // Account → Addresses: edit, then delete.
    const addressId = saved.customer.addresses[0].id;
    const edited = await sf.updateCustomerAddress(addressId, { ...checkoutAddress('fr'), city: 'Lyon' });
    expect(edited.customer.addresses[0]).toMatchObject({ city: 'Lyon', is_default_shipping: true });
    await sf.deleteCustomerAddress(addressId);
    expect((await sf.retrieveCustomer()).addresses).toEqual([]);

    // Signed out, the customer's order is not there for anyone holding its id.
    const stranger = newStorefront();
    await expect(stranger.retrieveOrder(order.id)).rejects.toThrow(/not found/);
    sf.signOut();
    await expect(sf.listOrders()).rejects.toThrow();
  });
});
