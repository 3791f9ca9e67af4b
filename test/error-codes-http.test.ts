import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/platform/http/error-codes.ts';
import { startTestApp, type TestApp } from './app.ts';

/**
 * A client switches on `code`: each module moved to codes answers its refusals with one, beside
 * the same `{ type, message }` as before. One refusal per module, as a client meets it over HTTP.
 */
describe('error codes over HTTP, per module', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 300_000);
  afterAll(() => t?.close());

  type Res = { statusCode: number; json(): unknown };
  /** The whole body: a code the table knows, its type and status, and the message it fills. */
  function expectError(res: Res, status: number, body: { type: string; code: string; message: string | RegExp }) {
    expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
    expect(Object.hasOwn(ERROR_CODES, body.code)).toBe(true);
    const message = typeof body.message === 'string' ? body.message : expect.stringMatching(body.message);
    expect(res.json()).toEqual({ ...body, message });
  }

  it('a body and a query the route schema refuses: invalid_request, with Medusa’s message', async () => {
    const body = await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: { email: 'a@example.com' } });
    expectError(body, 400, {
      type: 'invalid_data',
      code: 'invalid_request',
      message: "Invalid request: Field 'password' is required",
    });
    const query = await t.admin('GET', '/admin/regions?limit=many');
    expectError(query, 400, { type: 'invalid_data', code: 'invalid_request', message: /^Invalid request \(query\): / });
  });

  it('an unknown route: route_not_found', async () => {
    expectError(await t.inject({ method: 'GET', url: '/store/nowhere?x=1' }), 404, {
      type: 'not_found',
      code: 'route_not_found',
      message: 'Route GET /store/nowhere not found',
    });
  });

  it('auth and sessions: unauthorized, permission_missing, invalid_credentials', async () => {
    expectError(await t.inject({ method: 'GET', url: '/admin/users/me' }), 401, {
      type: 'unauthorized',
      code: 'unauthorized',
      message: 'Unauthorized',
    });
    expectError(await t.inject({ method: 'DELETE', url: '/auth/session' }), 401, {
      type: 'unauthorized',
      code: 'unauthorized',
      message: 'Unauthorized',
    });
    const viewer = await t.admin(
      'POST',
      '/admin/regions',
      { name: 'Nope', currency_code: 'eur' },
      { token: t.viewerToken },
    );
    expectError(viewer, 403, {
      type: 'forbidden',
      code: 'permission_missing',
      message: /^Your role lacks the permission \S+$/,
    });
    const login = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: { email: 'nobody@example.com', password: 'not-the-password' },
    });
    expectError(login, 401, {
      type: 'unauthorized',
      code: 'invalid_credentials',
      message: 'Invalid email or password',
    });
  });

  it('carts, checkout and payments: cart_not_found, payment_collection_not_found, payment_not_found', async () => {
    expectError(await t.store('GET', '/store/carts/cart_nope'), 404, {
      type: 'not_found',
      code: 'cart_not_found',
      message: "Cart with id 'cart_nope' not found",
    });
    const session = await t.store('POST', '/store/payment-collections/pay_col_nope/payment-sessions', {
      provider_id: 'pp_system_default',
    });
    expectError(session, 404, {
      type: 'not_found',
      code: 'payment_collection_not_found',
      message: 'Payment collection with id: pay_col_nope was not found',
    });
    expectError(await t.admin('POST', '/admin/payments/pay_nope/capture', {}), 404, {
      type: 'not_found',
      code: 'payment_not_found',
      message: 'Payment with id: pay_nope was not found',
    });
  });

  it('regions: the admin’s and the store’s wording, each with its code', async () => {
    expectError(await t.admin('GET', '/admin/regions/reg_nope'), 404, {
      type: 'not_found',
      code: 'region_not_found',
      message: 'Region with id: reg_nope not found',
    });
    expectError(await t.store('GET', '/store/regions/reg_nope'), 404, {
      type: 'not_found',
      code: 'store_region_not_found',
      message: 'Region with id: reg_nope was not found',
    });
  });

  it('customers, stores, products, plugins, federation: their not-found codes', async () => {
    expectError(await t.admin('GET', '/admin/customers/cus_nope'), 404, {
      type: 'not_found',
      code: 'customer_not_found',
      message: 'Customer with id: cus_nope not found',
    });
    expectError(await t.admin('GET', '/admin/stores/store_nope'), 404, {
      type: 'not_found',
      code: 'store_not_found',
      message: 'Store with id: store_nope was not found',
    });
    expectError(await t.admin('GET', '/admin/products/prod_nope'), 404, {
      type: 'not_found',
      code: 'product_not_found',
      message: 'Product with id: prod_nope was not found',
    });
    expectError(await t.admin('GET', '/admin/plugins/plg_nope'), 404, {
      type: 'not_found',
      code: 'plugin_not_found',
      message: 'Plugin with id: plg_nope not found',
    });
    expectError(await t.admin('GET', '/admin/marketplace/feed/@acme/nope'), 404, {
      type: 'not_found',
      code: 'federation_plugin_not_in_folder',
      message: 'No plugin @acme/nope in the plugins folder',
    });
  });

  it('a message with a filled parameter and a code a client can switch on: cart_currency_mismatch', async () => {
    const regions = (await t.admin('GET', '/admin/regions?limit=1')).json() as {
      regions: { id: string; name: string; currency_code: string }[];
    };
    const region =
      regions.regions[0] ??
      (await t.admin('POST', '/admin/regions', { name: 'EU', currency_code: 'eur' })).json().region;
    const other = region.currency_code === 'usd' ? 'eur' : 'usd';
    const res = await t.store('POST', '/store/carts', { region_id: region.id, currency_code: other });
    expectError(res, 400, {
      type: 'invalid_data',
      code: 'cart_currency_mismatch',
      message: `Currency code ${other} does not match the currency of region ${region.name} (${region.currency_code})`,
    });
  });
});
