import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, sessionCookie, signUpCustomer } from '../customers/customers.testing.ts';
import { makeCart, makeProduct, makeRegion } from './checkout.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

const as = (token: string) => ({ headers: bearer(token) });

describe('carts of customers', () => {
  it('a cart created while signed in belongs to the customer and takes their email', async () => {
    const alice = await signUpCustomer(t);
    const cart = await makeCart(t, {}, bearer(alice.token));
    expect(cart).toMatchObject({
      customer_id: alice.customer.id,
      email: alice.email,
      customer: { id: alice.customer.id, email: alice.email },
    });
    const own = await t.store('GET', `/store/carts/${cart.id}`, undefined, as(alice.token));
    expect(own.statusCode).toBe(200);
    const cookie = await sessionCookie(t, alice.token);
    expect((await t.store('GET', `/store/carts/${cart.id}`, undefined, { headers: { cookie } })).statusCode).toBe(200);
  });

  it('nobody else can read or change it: another customer and a guest get the 404 of a missing cart', async () => {
    const alice = await signUpCustomer(t);
    const bob = await signUpCustomer(t);
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, { items: [{ variant_id: variant.id, quantity: 1 }] }, bearer(alice.token));
    const line = cart.items[0].id;
    const notFound = { type: 'not_found', code: 'cart_not_found', message: `Cart with id '${cart.id}' not found` };
    const attempts = [
      () => t.store('GET', `/store/carts/${cart.id}`),
      () => t.store('GET', `/store/carts/${cart.id}`, undefined, as(bob.token)),
      () => t.store('GET', `/store/carts/${cart.id}`, undefined, { headers: bearer(t.adminToken) }),
      () => t.store('POST', `/store/carts/${cart.id}`, { email: 'thief@example.com' }, as(bob.token)),
      () => t.store('POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 1 }),
      () => t.store('POST', `/store/carts/${cart.id}/line-items/${line}`, { quantity: 5 }, as(bob.token)),
      () => t.store('DELETE', `/store/carts/${cart.id}/line-items/${line}`),
      () => t.store('POST', `/store/carts/${cart.id}/customer`, undefined, as(bob.token)),
      () => t.store('POST', `/store/carts/${cart.id}/complete`),
      () => t.store('POST', `/store/carts/${cart.id}/complete`, undefined, as(bob.token)),
      () => t.store('GET', `/store/shipping-options?cart_id=${cart.id}`, undefined, as(bob.token)),
      () => t.store('POST', '/store/payment-collections', { cart_id: cart.id }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    const own = (await t.store('GET', `/store/carts/${cart.id}`, undefined, as(alice.token))).json().cart;
    expect(own).toMatchObject({ email: alice.email, completed_at: null });
    expect(own.items[0].quantity).toBe(1);

    // A collection created by the owner is just as invisible to others.
    const pc = (await t.store('POST', '/store/payment-collections', { cart_id: cart.id }, as(alice.token))).json()
      .payment_collection;
    const session = await t.store(
      'POST',
      `/store/payment-collections/${pc.id}/payment-sessions`,
      { provider_id: 'pp_system_default' },
      as(bob.token),
    );
    expect(session.statusCode).toBe(404);
    expect(session.json()).toEqual({
      type: 'not_found',
      code: 'payment_collection_not_found',
      message: `Payment collection with id: ${pc.id} was not found`,
    });
  });

  it('an anonymous cart is open to anyone with its id and the key, until a customer takes it', async () => {
    const carol = await signUpCustomer(t);
    const cart = await makeCart(t, { email: 'guest@example.com' });
    expect((await t.store('GET', `/store/carts/${cart.id}`, undefined, as(carol.token))).statusCode).toBe(200);
    expect((await t.store('POST', `/store/carts/${cart.id}`, { metadata: { a: 1 } })).statusCode).toBe(200);

    const taken = await t.store('POST', `/store/carts/${cart.id}/customer`, undefined, as(carol.token));
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().cart).toMatchObject({
      customer_id: carol.customer.id,
      email: carol.email,
      customer: { id: carol.customer.id },
    });
    expect((await t.store('GET', `/store/carts/${cart.id}`)).statusCode).toBe(404);
    // Taking it again is harmless.
    expect((await t.store('POST', `/store/carts/${cart.id}/customer`, {}, as(carol.token))).statusCode).toBe(200);
  });

  it('POST /store/carts/{id}/customer needs a customer: 401 for a guest or an admin token, 400 for a body', async () => {
    const cart = await makeCart(t, {});
    const guest = await t.store('POST', `/store/carts/${cart.id}/customer`);
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
    expect(
      (await t.store('POST', `/store/carts/${cart.id}/customer`, undefined, { headers: bearer(t.adminToken) }))
        .statusCode,
    ).toBe(401);
    const dave = await signUpCustomer(t);
    expect(
      (await t.store('POST', `/store/carts/${cart.id}/customer`, { customer_id: 'x' }, as(dave.token))).statusCode,
    ).toBe(400);
  });
});
