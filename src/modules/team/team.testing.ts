import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { createUser } from '../auth/service.ts';

/** Factories for tests of the team: users with a role, and their tokens. Tests only. */

export const TEAM_PASSWORD = 'team-password-1';

export const teamEmail = (tag = 'member') => `${tag}-${randomBytes(4).toString('hex')}@example.com`;

export async function login(t: TestApp, email: string, password = TEAM_PASSWORD): Promise<string> {
  const res = await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

/** A new user holding `role` (built-in name or custom id), signed in: its id, email and bearer token. */
export async function memberWithRole(t: TestApp, role: string, tag = 'member') {
  const email = teamEmail(tag);
  const user = await createUser(t.ctx, { email, password: TEAM_PASSWORD, role });
  return { id: user.id, email, token: await login(t, email) };
}

/** A custom role made through the API by the owner; its id. */
export async function customRole(t: TestApp, permissions: string[], name = `role ${randomBytes(3).toString('hex')}`) {
  const res = await t.admin('POST', '/admin/roles', { name, permissions });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().role.id as string;
}
