import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, PASSWORD, signUpCustomer } from './customers.testing.ts';
import { Medusa } from '../../../test/medusa-sdk.ts';

type Addr = { id: string; city: string | null; is_default_shipping?: boolean; is_default_billing?: boolean };

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestApp();
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => t.close());

/** A signed-in SDK, as Medusa's storefront holds one. */
async function shopperSdk() {
  const { email, customer } = await signUpCustomer(t);
  const sdk = new Medusa({
    baseUrl,
    publishableKey: t.publishableKey,
    auth: { type: 'jwt', jwtTokenStorageMethod: 'memory' },
  });
  await sdk.auth.login('customer', 'emailpass', { email, password: PASSWORD });
  return { sdk, customer };
}

// What the storefront's address form posts: every field, blanks as empty strings.
const form = (city: string, extra: Record<string, unknown> = {}) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  company: '',
  address_1: '12 Rue des Fleurs',
  address_2: '',
  city,
  postal_code: '75001',
  province: '',
  country_code: 'FR',
  phone: '+33 1 23 45 67 89',
  ...extra,
});

describe('address book', () => {
  it('create, list, update and delete through the Medusa JS SDK, with one default of each kind', async () => {
    const { sdk, customer } = await shopperSdk();
    const first = await sdk.store.customer.createAddress(
      form('Paris', { is_default_shipping: true, is_default_billing: true }),
    );
    expect(first.customer.id).toBe(customer.id);
    expect(first.customer.addresses).toHaveLength(1);
    const paris = first.customer.addresses[0];
    expect(paris).toMatchObject({
      id: expect.stringMatching(/^cuaddr_/),
      customer_id: customer.id,
      city: 'Paris',
      country_code: 'fr',
      company: null,
      address_2: null,
      is_default_shipping: true,
      is_default_billing: true,
    });

    const second = await sdk.store.customer.createAddress(form('Lyon', { is_default_shipping: true }));
    const byCity = Object.fromEntries(second.customer.addresses.map((a: Addr) => [a.city, a]));
    expect(byCity.Lyon).toMatchObject({ is_default_shipping: true, is_default_billing: false });
    expect(byCity.Paris).toMatchObject({ is_default_shipping: false, is_default_billing: true });

    const list = await sdk.store.customer.listAddress({ limit: 1 });
    expect(list).toMatchObject({ count: 2, limit: 1, offset: 0 });
    expect(list.addresses.map((a: Addr) => a.city)).toEqual(['Paris']);
    const one = await sdk.store.customer.retrieveAddress(byCity.Lyon.id);
    expect(one.address.city).toBe('Lyon');

    const updated = await sdk.store.customer.updateAddress(paris.id, { city: 'Marseille', is_default_shipping: true });
    const after = Object.fromEntries(updated.customer.addresses.map((a: Addr) => [a.id, a]));
    expect(after[paris.id]).toMatchObject({ city: 'Marseille', is_default_shipping: true, is_default_billing: true });
    expect(after[byCity.Lyon.id].is_default_shipping).toBe(false);

    const removed = await sdk.store.customer.deleteAddress(byCity.Lyon.id);
    expect(removed).toMatchObject({ id: byCity.Lyon.id, object: 'customer_address', deleted: true });
    expect(removed.parent?.addresses.map((a: Addr) => a.id)).toEqual([paris.id]);

    const me = await sdk.store.customer.retrieve();
    expect(me.customer.addresses.map((a: Addr) => a.city)).toEqual(['Marseille']);
    const admin = await t.admin('GET', `/admin/customers/${customer.id}`);
    expect(admin.json().customer.addresses).toEqual([expect.objectContaining({ id: paris.id, city: 'Marseille' })]);
    const adminList = await t.admin('GET', `/admin/customers?email=${encodeURIComponent(customer.email)}`);
    expect(adminList.json().customers[0].addresses).toHaveLength(1);
  });

  it("another customer's address is not found; without a customer 401; bad input 400", async () => {
    const alice = await signUpCustomer(t);
    const bob = await signUpCustomer(t);
    const made = await t.store('POST', '/store/customers/me/addresses', form('Nice'), { headers: bearer(alice.token) });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().customer.addresses[0].id;
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { city: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.store(method, `/store/customers/me/addresses/${id}`, body, { headers: bearer(bob.token) });
      expect(res.statusCode, `${method} ${res.body}`).toBe(404);
      expect(res.json()).toEqual({
        type: 'not_found',
        code: 'customer_address_not_found',
        message: `Customer address with id: ${id} was not found`,
      });
    }
    expect((await t.store('GET', '/store/customers/me/addresses')).statusCode).toBe(401);
    expect((await t.store('POST', '/store/customers/me/addresses', form('X'))).statusCode).toBe(401);
    const bad = await t.store(
      'POST',
      '/store/customers/me/addresses',
      { country_code: 'FRA' },
      { headers: bearer(alice.token) },
    );
    expect(bad.statusCode).toBe(400);
    const unknown = await t.store(
      'POST',
      '/store/customers/me/addresses',
      { nope: 1 },
      { headers: bearer(alice.token) },
    );
    expect(unknown.statusCode).toBe(400);
    const mine = await t.store('GET', '/store/customers/me/addresses', undefined, { headers: bearer(alice.token) });
    expect(mine.json().addresses.map((a: { city: string }) => a.city)).toEqual(['Nice']);
  });
});
