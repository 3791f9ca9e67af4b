import { expect } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import type { JsonObject } from '../../platform/providers.ts';

/** Factories for tests of logins and password resets. Tests only. */

/**
 * A notification provider stand-in for email: what the shop asks it to send is kept in the
 * returned list (each entry is the `send` input: `to`, `template`, `data` with the secret link).
 */
export function installMailbox(t: TestApp): JsonObject[] {
  const sent: JsonObject[] = [];
  t.app.providers.notification.add({
    id: 'test-mailbox',
    owner: 'test',
    name: 'Test mailbox',
    methods: ['send'],
    channels: ['email'],
    call: async (_method, input) => {
      sent.push(input);
      return { id: `msg_${sent.length}` };
    },
  });
  return sent;
}

/**
 * Medusa's reset flow over HTTP: ask for the link, take the token out of the email the mailbox
 * received, and set `password` with it (`POST /auth/{actor}/emailpass/update`).
 */
export async function resetPassword(
  t: TestApp,
  sent: JsonObject[],
  actor: 'user' | 'customer',
  email: string,
  password: string,
): Promise<void> {
  const asked = await t.inject({
    method: 'POST',
    url: `/auth/${actor}/emailpass/reset-password`,
    payload: { identifier: email },
  });
  expect(asked.statusCode, asked.body).toBe(201);
  await t.workers.notifications.drain();
  const mail = [...sent].reverse().find((m) => m.to === email && m.template === 'auth.password_reset');
  const link = (mail?.data as { reset_url?: string } | undefined)?.reset_url;
  expect(link, 'the reset email').toBeDefined();
  const token = new URL(link!).searchParams.get('token');
  const updated = await t.inject({
    method: 'POST',
    url: `/auth/${actor}/emailpass/update`,
    headers: { authorization: `Bearer ${token}` },
    payload: { password },
  });
  expect(updated.statusCode, updated.body).toBe(200);
  expect(updated.json()).toEqual({ success: true });
}
