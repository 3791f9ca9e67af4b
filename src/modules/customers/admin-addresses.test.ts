import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, errorOf } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { bearer, signUpCustomer } from './customers.testing.ts';

/** The admin's view of a customer's address book (Medusa's admin.customer.*Address), on the store's. */

let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

const address = (city: string, extra: { is_default_shipping?: boolean } = {}) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  address_1: 'Hauptstr. 1',
  city,
  postal_code: '10115',
  country_code: 'DE',
  ...extra,
});

const guest = async () =>
  (await sdk.admin.customer.create({ email: `guest-${Date.now()}-${Math.random()}@example.com` })).customer;

describe('admin customer addresses', () => {
  it('creates, lists, reads, updates and deletes through the SDK; a new default replaces the old', async () => {
    const customer = await guest();
    const { customer: withOne } = await sdk.admin.customer.createAddress(
      customer.id,
      address('Berlin', { is_default_shipping: true }),
    );
    expect(withOne.addresses).toMatchObject([{ city: 'Berlin', country_code: 'de', is_default_shipping: true }]);
    expect(withOne).toHaveProperty('groups');
    const { customer: withTwo } = await sdk.admin.customer.createAddress(
      customer.id,
      address('Hamburg', { is_default_shipping: true }),
    );
    const [berlin, hamburg] = withTwo.addresses!;
    expect([berlin.is_default_shipping, hamburg.is_default_shipping]).toEqual([false, true]);

    const list = await sdk.admin.customer.listAddresses(customer.id);
    expect(list).toMatchObject({ count: 2, offset: 0, limit: 50 });
    expect(list.addresses.map((a) => a.city)).toEqual(['Berlin', 'Hamburg']);
    expect((await sdk.admin.customer.retrieveAddress(customer.id, berlin.id)).address).toMatchObject({
      id: berlin.id,
      city: 'Berlin',
      customer_id: customer.id,
    });

    const { customer: updated } = await sdk.admin.customer.updateAddress(customer.id, berlin.id, { city: 'Potsdam' });
    expect(updated.addresses!.map((a) => a.city)).toEqual(['Potsdam', 'Hamburg']);

    const deleted = (await sdk.admin.customer.deleteAddress(customer.id, hamburg.id)) as unknown as {
      id: string;
      object: string;
      deleted: boolean;
      parent: { addresses: { city: string }[] };
    };
    expect(deleted).toMatchObject({ id: hamburg.id, object: 'customer_address', deleted: true });
    expect(deleted.parent.addresses.map((a) => a.city)).toEqual(['Potsdam']);
  });

  it('sees the address book a shopper keeps in the store, and another customer’s address is not found', async () => {
    const { customer, token } = await signUpCustomer(t);
    const stored = await t.store('POST', '/store/customers/me/addresses', address('Köln'), {
      headers: bearer(token),
    });
    expect(stored.statusCode, stored.body).toBe(200);
    const [own] = (await sdk.admin.customer.listAddresses(customer.id)).addresses;
    expect(own.city).toBe('Köln');

    const other = await guest();
    const foreign = await t.admin('GET', `/admin/customers/${other.id}/addresses/${own.id}`);
    expect(errorOf(foreign)).toEqual({ status: 404, type: 'not_found', code: 'customer_address_not_found' });
    const foreignWrite = await t.admin('POST', `/admin/customers/${other.id}/addresses/${own.id}`, { city: 'x' });
    expect(errorOf(foreignWrite)).toEqual({ status: 404, type: 'not_found', code: 'customer_address_not_found' });
    expect((await sdk.admin.customer.retrieveAddress(customer.id, own.id)).address.city).toBe('Köln');
  });

  it('answers 404 for an unknown or deleted customer, and 400 for a bad body, writing nothing', async () => {
    const missing = await t.admin('POST', '/admin/customers/cus_missing/addresses', address('Bonn'));
    expect(errorOf(missing)).toEqual({ status: 404, type: 'not_found', code: 'customer_not_found' });
    const customer = await guest();
    const bad = await t.admin('POST', `/admin/customers/${customer.id}/addresses`, { city: 'Bonn', nope: 1 });
    expect(errorOf(bad)).toMatchObject({ status: 400, code: 'invalid_request' });
    const badCountry = await t.admin('POST', `/admin/customers/${customer.id}/addresses`, { country_code: 'DEU' });
    expect(errorOf(badCountry)).toMatchObject({ status: 400, code: 'invalid_request' });
    await sdk.admin.customer.delete(customer.id);
    const gone = await t.admin('GET', `/admin/customers/${customer.id}/addresses`);
    expect(errorOf(gone)).toEqual({ status: 404, type: 'not_found', code: 'customer_not_found' });
  });
});
