import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app.ts';
import {
  PASSWORD,
  bearer,
  customerEvents,
  loginToken,
  registerToken,
  sessionCookie,
  signUpCustomer,
  uniqueEmail,
} from './customers.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { LOGIN_MAX_FAILURES: '3' } });
});
afterAll(() => t.close());

const register = (body: unknown, ip = '10.9.0.1') =>
  t.inject({ method: 'POST', url: '/auth/customer/emailpass/register', payload: body as object, remoteAddress: ip });
const login = (body: unknown, ip = '10.9.0.1') =>
  t.inject({ method: 'POST', url: '/auth/customer/emailpass', payload: body as object, remoteAddress: ip });
const me = (headers: Record<string, string>) => t.store('GET', '/store/customers/me', undefined, { headers });

describe('customer registration and login', () => {
  it('registers a login and answers exactly { token } with Medusa claims and an empty actor_id', async () => {
    const res = await register({ email: uniqueEmail(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['token']);
    const claims = decodeJwt(res.json().token);
    expect(claims).toMatchObject({
      actor_id: '',
      actor_type: 'customer',
      auth_provider: 'emailpass',
      app_metadata: {},
      user_metadata: {},
    });
    expect(claims.auth_identity_id).toMatch(/^authid_[0-9A-Z]{26}$/);
    expect(claims.exp! - claims.iat!).toBe(24 * 3600);
  });

  it('rejects bad register bodies with 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ email: uniqueEmail(), password: 'short' }, "'password'"],
      [{ email: 'nope', password: PASSWORD }, "'email'"],
      [{ email: uniqueEmail() }, "Field 'password' is required"],
      [{ email: uniqueEmail(), password: PASSWORD, name: 'x' }, "Unrecognized fields: 'name'"],
      [{ email: uniqueEmail(), password: 12345678 }, "'password'"],
    ];
    for (const [body, message] of cases) {
      const res = await register(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
      expect(res.json().message).toContain(message);
    }
  });

  it('re-registering a login without a customer needs its password; one with a customer is taken (401)', async () => {
    const email = uniqueEmail();
    const first = decodeJwt(await registerToken(t, email));
    const again = await register({ email: email.toUpperCase(), password: PASSWORD });
    expect(again.statusCode).toBe(200);
    expect(decodeJwt(again.json().token).auth_identity_id).toBe(first.auth_identity_id);
    const wrong = await register({ email, password: 'another-password' }, '10.9.1.1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      type: 'unauthorized',
      code: 'identity_exists',
      message: 'Identity with email already exists',
    });

    await t.store('POST', '/store/customers', {}, { headers: bearer(again.json().token) });
    const taken = await register({ email, password: PASSWORD });
    expect(taken.statusCode).toBe(401);
    expect(taken.json()).toEqual({
      type: 'unauthorized',
      code: 'identity_exists',
      message: 'Identity with email already exists',
    });
  });

  it('logs in with a token naming the customer once it exists, any email case', async () => {
    const { customer, email } = await signUpCustomer(t);
    const res = await login({ email: email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const claims = decodeJwt(res.json().token);
    expect(claims).toMatchObject({
      actor_id: customer.id,
      actor_type: 'customer',
      app_metadata: { customer_id: customer.id },
    });
  });

  it('gives the same 401 for a wrong password and an unknown email; bad bodies are 400', async () => {
    const { email } = await signUpCustomer(t);
    const wrong = await login({ email, password: 'wrong-password' }, '10.9.2.1');
    const unknown = await login({ email: uniqueEmail(), password: 'wrong-password' }, '10.9.2.1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      type: 'unauthorized',
      code: 'invalid_credentials',
      message: 'Invalid email or password',
    });
    expect(unknown.body).toBe(wrong.body);
    expect((await login({ email })).statusCode).toBe(400);
    expect((await login({ email, password: PASSWORD, remember: true })).statusCode).toBe(400);
  });

  it('past the per-email budget refuses addresses that failed (right password too), never the owner elsewhere, apart from admin logins', async () => {
    const { email } = await signUpCustomer(t);
    for (let i = 0; i < 3; i++)
      expect((await login({ email, password: 'bad-password' }, `10.9.3.${i}`)).statusCode).toBe(401);
    const blocked = await login({ email, password: PASSWORD }, '10.9.3.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().type).toBe('too_many_requests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login({ email, password: PASSWORD }, '10.9.3.9')).statusCode).toBe(200);

    // The customer scope never locks out the admin login of the same email.
    for (let i = 0; i < 3; i++) await login({ email: ADMIN.email, password: 'bad-password' }, `10.9.4.${i}`);
    expect((await login({ email: ADMIN.email, password: 'bad-password' }, '10.9.4.0')).statusCode).toBe(429);
    const admin = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: ADMIN,
      remoteAddress: '10.9.4.10',
    });
    expect(admin.statusCode).toBe(200);
  });

  it('counts wrong passwords on re-register towards the limit', async () => {
    const email = uniqueEmail();
    await registerToken(t, email);
    for (let i = 0; i < 3; i++)
      expect((await register({ email, password: 'guess-guess' }, `10.9.5.${i}`)).statusCode).toBe(401);
    expect((await register({ email, password: PASSWORD }, '10.9.5.2')).statusCode).toBe(429);
  });
});

describe('POST /store/customers', () => {
  it('creates the account of a registered login, links it, and emits customer.created', async () => {
    const email = uniqueEmail();
    const token = await registerToken(t, email);
    const res = await t.store(
      'POST',
      '/store/customers',
      { first_name: 'Lin', phone: '555', metadata: { src: 'web' } },
      { headers: bearer(token) },
    );
    expect(res.statusCode).toBe(200);
    const customer = res.json().customer;
    expect(customer).toMatchObject({
      email,
      first_name: 'Lin',
      phone: '555',
      has_account: true,
      created_by: null,
      metadata: { src: 'web' },
    });
    expect(customer.id).toMatch(/^cus_/);
    expect((await customerEvents(t, customer.id)).map((e) => e.name)).toEqual(['customer.created']);
    expect(decodeJwt(await loginToken(t, email)).actor_id).toBe(customer.id);
  });

  it('needs the publishable key (400) and a customer login (401); ignores admin tokens', async () => {
    expect(
      (
        await t.store(
          'POST',
          '/store/customers',
          {},
          { key: null, headers: bearer(await registerToken(t, uniqueEmail())) },
        )
      ).statusCode,
    ).toBe(400);
    const none = await t.store('POST', '/store/customers', {});
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
    expect((await t.store('POST', '/store/customers', {}, { headers: bearer(t.adminToken) })).statusCode).toBe(401);
    expect((await t.store('POST', '/store/customers', {}, { headers: bearer('garbage') })).statusCode).toBe(401);
  });

  it('refuses a token that already names a customer (400) and a second account for one login (422)', async () => {
    const email = uniqueEmail();
    const registered = await registerToken(t, email);
    expect((await t.store('POST', '/store/customers', {}, { headers: bearer(registered) })).statusCode).toBe(200);
    const already = await t.store('POST', '/store/customers', {}, { headers: bearer(await loginToken(t, email)) });
    expect(already.statusCode).toBe(400);
    expect(already.json()).toEqual({
      type: 'invalid_data',
      code: 'customer_already_authenticated',
      message: 'Request already authenticated as a customer.',
    });
    const twice = await t.store('POST', '/store/customers', {}, { headers: bearer(registered) });
    expect(twice.statusCode).toBe(422);
    expect(twice.json()).toEqual({
      type: 'duplicate_error',
      message: 'Customer with this email already has an account',
      code: 'invalid_request_error',
    });
  });

  it('makes one customer when the same register token is used twice at once', async () => {
    const token = await registerToken(t, uniqueEmail());
    const results = await Promise.all(
      [1, 2].map(() => t.store('POST', '/store/customers', {}, { headers: bearer(token) })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });

  it('validates the body: unknown fields, wrong types, and an email other than the login', async () => {
    const token = await registerToken(t, uniqueEmail());
    const before = (await customerEvents(t)).length;
    for (const body of [{ has_account: false }, { first_name: 1 }, { email: 'bad' }, { email: uniqueEmail() }]) {
      const res = await t.store('POST', '/store/customers', body, { headers: bearer(token) });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
    }
    expect((await customerEvents(t)).length).toBe(before);
  });

  it('works with the session of a register token too', async () => {
    const email = uniqueEmail();
    const cookie = await sessionCookie(t, await registerToken(t, email));
    const res = await t.store('POST', '/store/customers', { email: email.toUpperCase() }, { headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json().customer).toMatchObject({ email, has_account: true });
  });

  it('after an admin deletes the account, the login signs up again as a new customer', async () => {
    const { customer, email, token } = await signUpCustomer(t);
    expect((await t.admin('DELETE', `/admin/customers/${customer.id}`)).statusCode).toBe(200);
    expect((await me(bearer(token))).statusCode).toBe(401);
    const fresh = await loginToken(t, email);
    expect(decodeJwt(fresh).actor_id).toBe('');
    const again = await t.store('POST', '/store/customers', {}, { headers: bearer(fresh) });
    expect(again.statusCode).toBe(200);
    expect(again.json().customer.id).not.toBe(customer.id);
  });
});

describe('/store/customers/me', () => {
  it('reads the signed-in customer with a bearer token or a session cookie', async () => {
    const { customer, token } = await signUpCustomer(t, { last_name: 'Byron' });
    const viaBearer = await me(bearer(token));
    expect(viaBearer.statusCode).toBe(200);
    expect(viaBearer.json()).toEqual({ customer });
    const viaCookie = await me({ cookie: await sessionCookie(t, token) });
    expect(viaCookie.statusCode).toBe(200);
    expect(viaCookie.json()).toEqual({ customer });
  });

  it('is 401 for guests, admin tokens, register tokens and garbage; 400 without the key', async () => {
    expect((await me({})).statusCode).toBe(401);
    expect((await me(bearer(t.adminToken))).statusCode).toBe(401);
    expect((await me(bearer(await registerToken(t, uniqueEmail())))).statusCode).toBe(401);
    expect((await me(bearer('x.y.z'))).statusCode).toBe(401);
    expect((await me({ cookie: 'connect.sid=forged' })).statusCode).toBe(401);
    const { token } = await signUpCustomer(t);
    expect(
      (await t.store('GET', '/store/customers/me', undefined, { key: null, headers: bearer(token) })).statusCode,
    ).toBe(400);
  });

  it('updates its own profile (not the email) and emits customer.updated', async () => {
    const { customer, token, email } = await signUpCustomer(t);
    t.clock.advance(1000);
    const res = await t.store(
      'POST',
      '/store/customers/me',
      { first_name: 'Ada', company_name: 'AE', metadata: { x: 1 } },
      { headers: bearer(token) },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().customer).toMatchObject({
      id: customer.id,
      email,
      first_name: 'Ada',
      company_name: 'AE',
      metadata: { x: 1 },
      updated_at: t.clock.now().toISOString(),
    });
    const cookie = await sessionCookie(t, token);
    const viaCookie = await t.store(
      'POST',
      '/store/customers/me',
      { phone: '42', first_name: null },
      { headers: { cookie } },
    );
    expect(viaCookie.json().customer).toMatchObject({ phone: '42', first_name: null, company_name: 'AE' });
    expect((await customerEvents(t, customer.id)).map((e) => e.name)).toEqual([
      'customer.created',
      'customer.updated',
      'customer.updated',
    ]);

    const before = (await customerEvents(t)).length;
    for (const body of [{ email: uniqueEmail() }, { has_account: false }, { id: 'cus_other' }, { phone: 5 }]) {
      const bad = await t.store('POST', '/store/customers/me', body, { headers: bearer(token) });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.store('POST', '/store/customers/me', { first_name: 'x' })).statusCode).toBe(401);
    expect((await customerEvents(t)).length).toBe(before);
  });
});

describe('isolation and the admin surface', () => {
  it('a customer only ever reads and changes itself', async () => {
    const a = await signUpCustomer(t, { first_name: 'Alice' });
    const b = await signUpCustomer(t, { first_name: 'Bob' });
    expect((await me(bearer(a.token))).json().customer.id).toBe(a.customer.id);
    expect((await me(bearer(b.token))).json().customer.id).toBe(b.customer.id);
    await t.store('POST', '/store/customers/me', { first_name: 'Alice 2' }, { headers: bearer(a.token) });
    expect((await me(bearer(b.token))).json().customer).toEqual(b.customer);
    // No route takes another customer's id, and the body cannot name one.
    expect(
      (await t.store('GET', `/store/customers/${b.customer.id}`, undefined, { headers: bearer(a.token) })).statusCode,
    ).toBe(404);
    expect(
      (await t.store('POST', '/store/customers/me', { id: b.customer.id }, { headers: bearer(a.token) })).statusCode,
    ).toBe(400);
    // A's bearer wins over B's cookie: one request never mixes two customers.
    const mixed = await me({ ...bearer(a.token), cookie: await sessionCookie(t, b.token) });
    expect(mixed.json().customer.id).toBe(a.customer.id);
    expect((await t.admin('GET', `/admin/customers/${b.customer.id}`)).json().customer.first_name).toBe('Bob');
  });

  it('a customer token or customer session on /admin is 401', async () => {
    const { token } = await signUpCustomer(t);
    const viaToken = await t.admin('GET', '/admin/customers', undefined, { token });
    expect(viaToken.statusCode).toBe(401);
    expect(viaToken.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
    const cookie = await sessionCookie(t, token);
    expect((await t.inject({ method: 'GET', url: '/admin/customers', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('sessions and expiry (fake clock)', () => {
  it('POST /auth/session answers the claims and sets the cookie; DELETE ends it', async () => {
    const { token } = await signUpCustomer(t);
    const res = await t.inject({ method: 'POST', url: '/auth/session', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: decodeJwt(token) });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/^connect\.sid=[^;]+; Max-Age=36000; Path=\/; HttpOnly; SameSite=Lax$/);
    const cookie = setCookie.split(';')[0];
    expect((await me({ cookie })).statusCode).toBe(200);

    const end = await t.inject({ method: 'DELETE', url: '/auth/session', headers: { cookie } });
    expect(end.statusCode).toBe(200);
    expect(end.json()).toEqual({ success: true });
    expect(String(end.headers['set-cookie'])).toMatch(
      /^connect\.sid=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
    );
    expect((await me({ cookie })).statusCode).toBe(401);
    expect((await t.inject({ method: 'DELETE', url: '/auth/session', headers: { cookie } })).statusCode).toBe(401);
    // The bearer itself is not a session.
    expect((await me(bearer(token))).statusCode).toBe(200);
  });

  it('session routes: POST needs a valid bearer, DELETE needs the cookie', async () => {
    expect((await t.inject({ method: 'POST', url: '/auth/session' })).statusCode).toBe(401);
    expect((await t.inject({ method: 'POST', url: '/auth/session', headers: bearer('not.a.jwt') })).statusCode).toBe(
      401,
    );
    const { token } = await signUpCustomer(t);
    const del = await t.inject({ method: 'DELETE', url: '/auth/session', headers: bearer(token) });
    expect(del.statusCode).toBe(401);
    expect(del.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
  });

  it('a session lasts 10 hours and a token 24 hours by the injected clock', async () => {
    const { token } = await signUpCustomer(t);
    const cookie = await sessionCookie(t, token);
    t.clock.advance(10 * 3600 * 1000 - 1000);
    expect((await me({ cookie })).statusCode).toBe(200);
    t.clock.advance(2000);
    expect((await me({ cookie })).statusCode).toBe(401);
    expect((await me(bearer(token))).statusCode).toBe(200);
    t.clock.advance(14 * 3600 * 1000);
    expect((await me(bearer(token))).statusCode).toBe(401);
    expect(
      (await t.store('POST', '/store/customers/me', { first_name: 'late' }, { headers: bearer(token) })).statusCode,
    ).toBe(401);
    // An expired token cannot start a session either.
    expect((await t.inject({ method: 'POST', url: '/auth/session', headers: bearer(token) })).statusCode).toBe(401);
  });
});
