import { expect } from 'vitest';
import type { TestApp } from '../../../../test/app.ts';
import type { JsonObject } from '../../../platform/providers.ts';
import { uniqueSlug } from '../marketplace.testing.ts';

/** A namespace no other test of the worker uses. */
export const uniqueNamespace = (base: string) => uniqueSlug(base).replace(/[^a-z0-9-]/g, '');

/** The token of the newest verification link emailed to `email` (read from `sent`, see installMailbox). */
export async function mailedVerifyToken(t: TestApp, sent: JsonObject[], email: string): Promise<string> {
  await t.workers.notifications.drain();
  const mail = [...sent].reverse().find((m) => m.to === email);
  const url = (mail?.data as { verify_url?: string } | undefined)?.verify_url;
  expect(url, `a verification email to ${email}`).toBeDefined();
  return new URL(url!).searchParams.get('token')!;
}

/** Sign-up → emailed link (read from `sent`, see installMailbox) → verify: the vendor and its first token. */
export async function signUpVendor(
  t: TestApp,
  sent: JsonObject[],
  namespace: string,
): Promise<{ id: string; token: string; namespace: string }> {
  const email = `${namespace}@vendors.example`;
  const res = await t.store('POST', '/store/marketplace/vendors', {
    name: namespace,
    email,
    namespace: `@${namespace}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  const verified = await t.store('POST', '/store/marketplace/vendors/verify', {
    token: await mailedVerifyToken(t, sent, email),
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return { id: verified.json().vendor.id, token: verified.json().token.token, namespace };
}
