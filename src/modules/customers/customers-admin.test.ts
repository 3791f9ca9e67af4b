import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { customerEvents, signUpCustomer, uniqueEmail } from './customers.testing.ts';

let t: TestApp;
let adminId: string;
beforeAll(async () => {
  t = await startTestApp();
  adminId = (await t.admin('GET', '/admin/users/me')).json().user.id;
});
afterAll(() => t.close());

// Tests share one database: each tags its customers with a unique token to filter lists by.
const tag = () => `tag${randomBytes(4).toString('hex')}`;

async function create(body: Record<string, unknown> = {}) {
  const res = await t.admin('POST', '/admin/customers', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().customer;
}

const ids = (res: { json(): { customers: { id: string }[] } }) => res.json().customers.map((c) => c.id);

describe('admin customers: create and read', () => {
  it('creates a guest customer in Medusa shape, created by the acting user, with an event', async () => {
    const res = await t.admin('POST', '/admin/customers', {
      email: 'Ada.Lovelace@Example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0000',
      company_name: 'Analytical Engines',
      metadata: { vip: true },
    });
    expect(res.statusCode).toBe(200);
    const customer = res.json().customer;
    expect(customer.id).toMatch(/^cus_[0-9A-Z]{26}$/);
    expect(customer).toEqual({
      id: customer.id,
      email: 'ada.lovelace@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0000',
      company_name: 'Analytical Engines',
      has_account: false,
      metadata: { vip: true },
      created_by: adminId,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
      addresses: [],
      groups: [],
    });
    const got = await t.admin('GET', `/admin/customers/${customer.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ customer });
    const events = await customerEvents(t, customer.id);
    expect(events.map((e) => e.name)).toEqual(['customer.created']);
    expect(withoutGroups(events[0].payload)).toEqual(withoutGroups(customer));
  });

  it('creates from an empty body (every field is optional)', async () => {
    const customer = await create({});
    expect(customer).toMatchObject({ email: null, first_name: null, metadata: null, has_account: false });
  });

  it('lets a guest share the email of an account holder', async () => {
    const { email } = await signUpCustomer(t);
    expect((await create({ email })).email).toBe(email);
    expect((await create({ email: email.toUpperCase() })).has_account).toBe(false);
  });

  it('404s an unknown customer with Medusa message', async () => {
    const res = await t.admin('GET', '/admin/customers/cus_missing');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'customer_not_found',
      message: 'Customer with id: cus_missing not found',
    });
  });

  it('rejects bad bodies with 400 and writes nothing', async () => {
    const before = (await customerEvents(t)).length;
    const cases: [unknown, string][] = [
      [{ email: 'a@example.com', foo: 1 }, "Unrecognized fields: 'foo'"],
      [{ has_account: true }, "Unrecognized fields: 'has_account'"],
      [{ first_name: 5 }, "'first_name'"],
      [{ email: 'not-an-email' }, "'email'"],
      [{ email: null }, "'email'"],
      [{ metadata: 'x' }, "'metadata'"],
      [{ phone: 'x'.repeat(256) }, "'phone'"],
    ];
    for (const [body, message] of cases) {
      const res = await t.admin('POST', '/admin/customers', body as object);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
      expect(res.json().message).toContain(message);
    }
    const malformed = await t.inject({
      method: 'POST',
      url: '/admin/customers',
      payload: '{"email":',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect((await customerEvents(t)).length).toBe(before);
  });
});

describe('admin customers: update and delete', () => {
  it('updates with POST and PATCH alike; null clears a field; updated_at follows the clock', async () => {
    const c = await create({ first_name: 'Grace', last_name: 'Hopper', phone: '123', metadata: { a: 1 } });
    t.clock.advance(60_000);
    const post = await t.admin('POST', `/admin/customers/${c.id}`, {
      first_name: 'Grace B.',
      phone: null,
      metadata: { b: 2 },
    });
    expect(post.statusCode).toBe(200);
    expect(post.json().customer).toMatchObject({
      first_name: 'Grace B.',
      last_name: 'Hopper',
      phone: null,
      metadata: { b: 2 },
      created_at: c.created_at,
      updated_at: t.clock.now().toISOString(),
    });
    const patch = await t.admin('PATCH', `/admin/customers/${c.id}`, {
      email: 'GRACE@example.com',
      company_name: 'Navy',
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().customer).toMatchObject({
      email: 'grace@example.com',
      company_name: 'Navy',
      first_name: 'Grace B.',
    });
    const events = await customerEvents(t, c.id);
    expect(events.map((e) => e.name)).toEqual(['customer.created', 'customer.updated', 'customer.updated']);
    expect(withoutGroups(events[2].payload)).toEqual(withoutGroups(patch.json().customer));
  });

  it('404s updates of unknown customers and rejects bad update bodies, without events', async () => {
    const c = await create();
    const before = (await customerEvents(t)).length;
    const missing = await t.admin('PATCH', '/admin/customers/cus_nope', { first_name: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Customer with id: cus_nope not found');
    expect((await t.admin('POST', `/admin/customers/${c.id}`, { has_account: true })).statusCode).toBe(400);
    expect((await t.admin('POST', `/admin/customers/${c.id}`, { last_name: ['x'] })).statusCode).toBe(400);
    expect((await t.admin('POST', `/admin/customers/${'x'.repeat(201)}`, {})).statusCode).toBe(400);
    expect((await customerEvents(t)).length).toBe(before);
  });

  it('refuses to give an account holder the email of another (422), and writes nothing', async () => {
    const a = await signUpCustomer(t);
    const b = await signUpCustomer(t);
    const before = (await customerEvents(t)).length;
    const res = await t.admin('POST', `/admin/customers/${b.customer.id}`, {
      email: a.email.toUpperCase(),
      first_name: 'Changed',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      type: 'duplicate_error',
      message: 'Customer with this email already has an account',
      code: 'invalid_request_error',
    });
    expect((await t.admin('GET', `/admin/customers/${b.customer.id}`)).json().customer).toMatchObject({
      email: b.email,
      first_name: null,
    });
    expect((await customerEvents(t)).length).toBe(before);
  });

  it('soft-deletes: Medusa envelope, then 404 everywhere, an event, and the email is free for a new account', async () => {
    const c = await create({ email: uniqueEmail() });
    const res = await t.admin('DELETE', `/admin/customers/${c.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: c.id, object: 'customer', deleted: true });
    expect((await t.admin('GET', `/admin/customers/${c.id}`)).statusCode).toBe(404);
    expect((await t.admin('POST', `/admin/customers/${c.id}`, { first_name: 'x' })).statusCode).toBe(404);
    expect((await t.admin('DELETE', `/admin/customers/${c.id}`)).statusCode).toBe(404);
    expect((await t.admin('GET', `/admin/customers?email=${c.email}`)).json().count).toBe(0);
    const events = await customerEvents(t, c.id);
    expect(events.map((e) => e.name)).toEqual(['customer.created', 'customer.deleted']);
    expect(events[1].payload).toEqual({ id: c.id });
  });
});

describe('admin customers: list', () => {
  it('filters by q over email and names, any case, with LIKE wildcards taken literally', async () => {
    const tok = tag();
    const a = await create({ email: `${tok}@example.com` });
    const b = await create({ first_name: `First${tok.toUpperCase()}` });
    const c = await create({ last_name: `x${tok}y` });
    await create({ company_name: tok }); // company is not searched
    const res = await t.admin('GET', `/admin/customers?q=${tok.toUpperCase()}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: 3, limit: 50, offset: 0 });
    expect(ids(res)).toEqual([a.id, b.id, c.id]);

    const pct = await create({ first_name: `100% ${tok}` });
    await create({ first_name: `1000 ${tok}` });
    expect(ids(await t.admin('GET', `/admin/customers?q=${encodeURIComponent('100%')}`))).toEqual([pct.id]);
    const under = await create({ last_name: `a_b${tok}` });
    await create({ last_name: `axb${tok}` });
    expect(ids(await t.admin('GET', `/admin/customers?q=${encodeURIComponent(`a_b${tok}`)}`))).toEqual([under.id]);
  });

  it('filters by exact email (any case, one or many) and by has_account', async () => {
    const tok = tag();
    const g1 = await create({ email: `g1-${tok}@example.com`, last_name: tok });
    const g2 = await create({ email: `g2-${tok}@example.com`, last_name: tok });
    const holder = await signUpCustomer(t, { last_name: tok });
    expect(ids(await t.admin('GET', `/admin/customers?email=G1-${tok}@EXAMPLE.com`))).toEqual([g1.id]);
    expect(
      ids(await t.admin('GET', `/admin/customers?email[]=g1-${tok}@example.com&email[]=g2-${tok}@example.com`)),
    ).toEqual([g1.id, g2.id]);
    expect(ids(await t.admin('GET', `/admin/customers?email=g1-${tok}@example.com,g2-${tok}@example.com`))).toEqual([
      g1.id,
      g2.id,
    ]);
    expect(ids(await t.admin('GET', `/admin/customers?email=${tok}@example.com`))).toEqual([]);
    expect(ids(await t.admin('GET', `/admin/customers?q=${tok}&has_account=true`))).toEqual([holder.customer.id]);
    expect(ids(await t.admin('GET', `/admin/customers?q=${tok}&has_account=false`))).toEqual([g1.id, g2.id]);
    expect(ids(await t.admin('GET', `/admin/customers?q=${tok}`))).toEqual([g1.id, g2.id, holder.customer.id]);
    const bad = await t.admin('GET', '/admin/customers?has_account=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('has_account');
  });

  it('paginates: offset and limit, limit 0, offset past the end, limit clamped to 1000, bad values 400', async () => {
    const tok = tag();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await create({ last_name: tok }));
    const page2 = await t.admin('GET', `/admin/customers?q=${tok}&limit=2&offset=2`);
    expect(page2.json()).toMatchObject({ count: 3, limit: 2, offset: 2 });
    expect(ids(page2)).toEqual([made[2].id]);
    const zero = (await t.admin('GET', `/admin/customers?q=${tok}&limit=0`)).json();
    expect(zero).toEqual({ customers: [], count: 3, limit: 0, offset: 0 });
    const past = (await t.admin('GET', `/admin/customers?q=${tok}&offset=10`)).json();
    expect(past).toMatchObject({ customers: [], count: 3, offset: 10 });
    const clamped = (await t.admin('GET', `/admin/customers?q=${tok}&limit=5000`)).json();
    expect(clamped).toMatchObject({ count: 3, limit: 1000 });
    expect((await t.admin('GET', '/admin/customers')).json().limit).toBe(50);
    expect((await t.admin('GET', '/admin/customers?limit=-1')).statusCode).toBe(400);
    expect((await t.admin('GET', '/admin/customers?offset=abc')).statusCode).toBe(400);
  });
});

describe('admin customers: access', () => {
  it('needs a token (401); a viewer may read but not write (403)', async () => {
    const c = await create();
    expect((await t.inject({ method: 'GET', url: '/admin/customers' })).statusCode).toBe(401);
    const viewer = { token: t.viewerToken };
    expect((await t.admin('GET', '/admin/customers', undefined, viewer)).statusCode).toBe(200);
    expect((await t.admin('GET', `/admin/customers/${c.id}`, undefined, viewer)).statusCode).toBe(200);
    const before = (await customerEvents(t)).length;
    for (const [method, url] of [
      ['POST', '/admin/customers'],
      ['POST', `/admin/customers/${c.id}`],
      ['PATCH', `/admin/customers/${c.id}`],
      ['DELETE', `/admin/customers/${c.id}`],
    ]) {
      const res = await t.admin(method, url, method === 'DELETE' ? undefined : { first_name: 'Viewer' }, viewer);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().type).toBe('forbidden');
    }
    expect((await t.admin('GET', `/admin/customers/${c.id}`)).json().customer.first_name).toBeNull();
    expect((await customerEvents(t)).length).toBe(before);
  });
});

/** The admin answer adds the customer's groups (customer-groups module); the event carries the customer row. */
function withoutGroups(c: Record<string, unknown>) {
  const { groups: _groups, ...rest } = c;
  return rest;
}
