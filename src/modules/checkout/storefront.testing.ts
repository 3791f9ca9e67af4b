import { expect } from 'vitest';
import type { Sdk } from '../../../test/medusa-sdk.ts';

/**
 * The calls Medusa's Next.js starter (the DTC storefront) makes, with its query strings and
 * `fields` expressions, as one function per storefront data helper. Written from reading the
 * starter's src/lib/data/*.ts; no code of it is copied. Tests only.
 */
// biome-ignore lint/suspicious/noExplicitAny: the storefront reads Medusa's loosely typed JSON
export type Json = any;
type Headers = Record<string, string>;

export const PRODUCT_FIELDS =
  '*variants.calculated_price,+variants.inventory_quantity,*variants.images,+metadata,+tags,';
export const CART_FIELDS =
  '*items, *region, *items.product, *items.variant, *items.thumbnail, *items.metadata, +items.total, *promotions, +shipping_methods.name';
export const ORDER_FIELDS = '*payment_collections.payments,*items,*items.metadata,*items.variant,*items.product';
export const ORDER_LIST_FIELDS = '*items,+items.metadata,*items.variant,*items.product';

/** The storefront's data layer over one SDK; `auth` is the bearer the storefront keeps in its cookie. */
export function storefront(sdk: Sdk) {
  let auth: Headers = {};
  const fetch = (path: string, init: Record<string, unknown> = {}) =>
    sdk.client.fetch<Json>(path, { ...init, headers: { ...auth, ...((init.headers as Headers) ?? {}) } });
  return {
    signIn: (token: string) => {
      auth = { authorization: `Bearer ${token}` };
    },
    signOut: () => {
      auth = {};
    },
    listRegions: async () => (await fetch('/store/regions', { method: 'GET' })).regions as Json[],
    listLocales: async () => (await fetch('/store/locales', { method: 'GET' })).locales as Json[],
    // The header's and footer's menus, on every page.
    listCollections: async () =>
      (await fetch('/store/collections', { method: 'GET', query: { limit: 100, offset: 0 } })).collections as Json[],
    listCategories: async () =>
      (
        await fetch('/store/product-categories', {
          method: 'GET',
          query: {
            fields: '*category_children, *products, *parent_category, *parent_category.parent_category',
            limit: 100,
          },
        })
      ).product_categories as Json[],
    retrieveCategoryByHandle: async (handle: string) =>
      (
        await fetch('/store/product-categories', {
          method: 'GET',
          query: { fields: '*category_children, *products', handle },
        })
      ).product_categories[0] as Json,
    listProducts: (regionId: string, queryParams: Record<string, unknown> = {}, page = 1, limit = 12) =>
      fetch('/store/products', {
        method: 'GET',
        query: { limit, offset: (page - 1) * limit, region_id: regionId, fields: PRODUCT_FIELDS, ...queryParams },
      }),
    retrieveVariant: async (id: string) =>
      (await fetch(`/store/product-variants/${id}`, { method: 'GET', query: { fields: '*images' } })).variant,
    retrieveCart: async (id: string, fields = CART_FIELDS) =>
      (await fetch(`/store/carts/${id}`, { method: 'GET', query: { fields } })).cart as Json,
    createCart: async (regionId: string, locale?: string) =>
      (await sdk.store.cart.create({ region_id: regionId, locale } as never, {}, auth)).cart as Json,
    addToCart: (cartId: string, variantId: string, quantity: number) =>
      sdk.store.cart.createLineItem(cartId, { variant_id: variantId, quantity }, {}, auth),
    updateCart: async (cartId: string, data: Record<string, unknown>) =>
      (await sdk.store.cart.update(cartId, data as never, {}, auth)).cart as Json,
    listCartShippingMethods: async (cartId: string) =>
      (await fetch('/store/shipping-options', { method: 'GET', query: { cart_id: cartId } }))
        .shipping_options as Json[],
    calculateShipping: async (optionId: string, cartId: string) =>
      (await fetch(`/store/shipping-options/${optionId}/calculate`, { method: 'POST', body: { cart_id: cartId } }))
        .shipping_option,
    setShippingMethod: (cartId: string, optionId: string) =>
      sdk.store.cart.addShippingMethod(cartId, { option_id: optionId }, {}, auth),
    listPaymentProviders: async (regionId: string) =>
      (await fetch('/store/payment-providers', { method: 'GET', query: { region_id: regionId } }))
        .payment_providers as Json[],
    initiatePaymentSession: (cart: Json, providerId: string) =>
      sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId }, {}, auth),
    placeOrder: async (cartId: string) => {
      const res = (await sdk.store.cart.complete(cartId, {}, auth)) as Json;
      expect(res.type, JSON.stringify(res)).toBe('order');
      return res.order as Json;
    },
    retrieveOrder: async (id: string) =>
      (await fetch(`/store/orders/${id}`, { method: 'GET', query: { fields: ORDER_FIELDS } })).order as Json,
    listOrders: async (limit = 10, offset = 0) =>
      (
        await fetch('/store/orders', {
          method: 'GET',
          query: { limit, offset, order: '-created_at', fields: ORDER_LIST_FIELDS },
        })
      ).orders as Json[],
    retrieveCustomer: async () =>
      (await fetch('/store/customers/me', { method: 'GET', query: { fields: '*orders' } })).customer as Json,
    signup: async (form: { email: string; password: string; first_name: string; last_name: string; phone: string }) => {
      const registered = (await sdk.auth.register('customer', 'emailpass', {
        email: form.email,
        password: form.password,
      })) as string;
      const { password: _p, ...customer } = form;
      await sdk.store.customer.create(customer, {}, { authorization: `Bearer ${registered}` });
      const token = (await sdk.auth.login('customer', 'emailpass', {
        email: form.email,
        password: form.password,
      })) as string;
      auth = { authorization: `Bearer ${token}` };
      return token;
    },
    transferCart: (cartId: string) => sdk.store.cart.transferCart(cartId, {}, auth),
    addCustomerAddress: (address: Record<string, unknown>) =>
      sdk.store.customer.createAddress(address as never, {}, auth),
    updateCustomerAddress: (id: string, address: Record<string, unknown>) =>
      sdk.store.customer.updateAddress(id, address as never, {}, auth),
    deleteCustomerAddress: (id: string) => sdk.store.customer.deleteAddress(id, auth),
  };
}

/** The checkout form's address as the storefront posts it: every field, blanks as empty strings. */
export const checkoutAddress = (country: string) => ({
  first_name: 'Grace',
  last_name: 'Hopper',
  address_1: 'Unter den Linden 1',
  address_2: '',
  company: '',
  postal_code: '10117',
  city: 'Berlin',
  country_code: country,
  province: '',
  phone: '+49 30 1234567',
});
