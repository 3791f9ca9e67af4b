import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';

/** Factories for tests that need shoppers (customers, carts, orders). Tests only. */

export const PASSWORD = 'shopper-password-1';

export const uniqueEmail = (tag = 'shopper') => `${tag}-${randomBytes(4).toString('hex')}@example.com`;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function registerToken(t: TestApp, email: string, password = PASSWORD): Promise<string> {
  const res = await t.inject({
    method: 'POST',
    url: '/auth/customer/emailpass/register',
    payload: { email, password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token;
}

export async function loginToken(t: TestApp, email: string, password = PASSWORD): Promise<string> {
  const res = await t.inject({ method: 'POST', url: '/auth/customer/emailpass', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token;
}

/** `connect.sid=<signed value>`, ready for a `cookie` header, from `POST /auth/session` with this token. */
export async function sessionCookie(t: TestApp, token: string): Promise<string> {
  const res = await t.inject({ method: 'POST', url: '/auth/session', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'connect.sid');
  expect(cookie).toBeDefined();
  return `connect.sid=${cookie!.value}`;
}

/** The storefront sign-up: register, create the customer, log in again for a token that names it. */
export async function signUpCustomer(t: TestApp, body: Record<string, unknown> = {}, email = uniqueEmail()) {
  const created = await t.store('POST', '/store/customers', body, { headers: bearer(await registerToken(t, email)) });
  expect(created.statusCode, created.body).toBe(200);
  return { customer: created.json().customer, email, token: await loginToken(t, email) };
}

/** Outbox rows about one customer (or all customer events), oldest first. */
export function customerEvents(t: TestApp, id?: string) {
  return rows<{ name: string; payload: Record<string, unknown> }>(
    t.database.db,
    id
      ? sql`select name, payload from outbox where payload->>'id' = ${id} order by id`
      : sql`select name, payload from outbox where name like 'customer.%' order by id`,
  );
}
