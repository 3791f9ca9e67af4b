import { createHmac } from 'node:crypto';
import { expect } from 'vitest';
import { ADMIN, type TestApp } from '../../../test/app.ts';
import { startReceiver, type Receiver, type ReceiverMode } from '../../../test/webhook-receiver.ts';
import { inTx } from '../../platform/context.ts';
import type { EventName } from '../../platform/events/names.ts';
import { WebhookSender, type SenderOptions } from './sender.ts';
import { emitLoose } from '../../../test/events.ts';

/** Factories shared by the webhook test files (tests only). Each test cleans up with `cleanup()`. */

export const SECRET = 'whsec_test_secret_0123456789';

export function webhookFixtures(getT: () => TestApp) {
  const receivers: Receiver[] = [];
  const hooks: string[] = [];
  const senders: WebhookSender[] = [];
  let token: { value: string; at: number } | undefined;

  /**
   * As the admin, with a token at most 12 h old on the fake clock: retry schedules move the
   * clock by days, past the 24 h lifetime of the token the harness logged in with.
   */
  async function admin(method: string, url: string, body?: Record<string, unknown>) {
    const t = getT();
    const now = t.clock.now().getTime();
    if (!token || now - token.at > 12 * 3_600_000) {
      const res = await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN });
      token = { value: res.json().token, at: now };
    }
    return t.admin(method, url, body, { token: token.value });
  }

  return {
    admin,

    async receiver(mode?: ReceiverMode): Promise<Receiver> {
      const r = await startReceiver(mode);
      receivers.push(r);
      return r;
    },

    async subscribe(url: string, events: string[] = ['*']): Promise<{ id: string; url: string }> {
      const res = await admin('POST', '/admin/webhooks', { url, events, signing_secret: SECRET });
      expect(res.statusCode, res.body).toBe(200);
      hooks.push(res.json().webhook.id);
      return res.json().webhook;
    },

    /** A sender of its own (short timeout, other pool sizes) on the test app's database and clock. */
    sender(opts: Partial<SenderOptions> = {}): WebhookSender {
      const t = getT();
      const s = new WebhookSender({
        database: t.database,
        clock: t.clock,
        log: t.app.log,
        encryptionKey: t.config.encryptionKey,
        blockPrivate: false,
        ...opts,
      });
      senders.push(s);
      return s;
    },

    /** Deletes this test's subscriptions (closing their open deliveries) so later tests start clean. */
    async cleanup(): Promise<void> {
      for (const s of senders.splice(0)) await s.stop();
      for (const id of hooks.splice(0)) await admin('DELETE', `/admin/webhooks/${id}`);
      for (const r of receivers.splice(0)) await r.close();
    },
  };
}

export const emitEvent = (t: TestApp, name: EventName, payload: { id: string } & Record<string, unknown>) =>
  inTx(t.ctx, (tctx) => emitLoose(tctx, name, payload));

/** Outbox → deliveries → HTTP, everything due now. */
export async function dispatchAndSend(t: TestApp, sender: WebhookSender = t.workers.webhooks): Promise<void> {
  await t.workers.dispatcher.drain();
  await sender.drain();
}

/** Checks X-Service-Signature with node:crypto alone (not the project's helper). */
export function expectValidSignature(
  header: string | string[] | undefined,
  rawBody: Buffer,
  secret: string,
  now: Date,
): void {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  expect(match, String(header)).not.toBeNull();
  const [, t, v1] = match!;
  expect(Number(t)).toBe(Math.floor(now.getTime() / 1000));
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
  expect(v1).toBe(expected);
}

// biome-ignore lint/suspicious/noExplicitAny: inject's own json() is untyped
type AdminCall = (method: string, url: string) => Promise<{ statusCode: number; body: string; json(): any }>;

export async function ledger(admin: AdminCall, hookId: string, query = '') {
  const res = await admin('GET', `/admin/webhooks/${hookId}/deliveries${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function deliveryDetail(admin: AdminCall, hookId: string, deliveryId: string) {
  const res = await admin('GET', `/admin/webhooks/${hookId}/deliveries/${deliveryId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().delivery;
}
