import { sql } from 'drizzle-orm';
import type { Ctx, TxCtx } from '../../platform/context.ts';
import { type Part, writeTogether } from '../../platform/db/one-statement.ts';
import { encryptSecret } from '../../platform/crypto.ts';
import { newId } from '../../platform/ids.ts';
import type { ProviderPort, Providers } from '../../platform/providers.ts';
import { notificationWrite } from '../notifications/service.ts';
import { deliveryInsert, NOTIFICATIONS_CHANNEL } from './queries.ts';

export interface MessageInput {
  channel?: string;
  to: string;
  template: string;
  data: Record<string, unknown>;
  /** Merged into `data` at send time, stored encrypted and never shown to the admin (a reset token). */
  secretData?: Record<string, string>;
  /** At most one delivery per key (the same event dispatched twice queues one message). */
  dedupeKey?: string;
  resource?: { type: string; id: string };
}

export interface QueueDeps {
  providers: Providers;
  encryptionKey: string;
}

/** The provider that sends on a channel: the first running one (by id) that declares it. */
export function providerFor(providers: Providers, channel: string): ProviderPort | undefined {
  return providers.notification.list().find((p) => p.channels.includes(channel));
}

/**
 * A message as writes for a caller's statement (db/one-statement.ts), named `<name>_d` and
 * `<name>_n`: it exists exactly when the change that caused it commits, due now for the sender.
 * Without a provider for its channel it is recorded `not_sent` instead, and the admin gets one
 * notification a day saying so (written only when the message itself was: once per dedupe key).
 * `pending`: the sender has something new to send (wake it after the commit).
 */
export function messageWrites(
  ctx: Ctx,
  deps: QueueDeps,
  input: MessageInput,
  name: string,
): { writes: Part[]; pending: boolean } {
  const channel = input.channel ?? 'email';
  const sender = providerFor(deps.providers, channel);
  const now = ctx.clock.now();
  const delivery = deliveryInsert({
    id: newId('ntfd'),
    channel,
    to: input.to,
    template: input.template,
    data: input.data,
    secret_data: input.secretData ? encryptSecret(deps.encryptionKey, JSON.stringify(input.secretData)) : null,
    dedupe_key: input.dedupeKey ?? null,
    resource_type: input.resource?.type ?? null,
    resource_id: input.resource?.id ?? null,
    status: sender ? 'pending' : 'not_sent',
    attempt_count: 0,
    next_attempt_at: sender ? now : null,
    last_error: sender ? null : `No notification provider for ${channel} is installed`,
    created_at: now,
    updated_at: now,
  });
  if (sender) return { writes: [[`${name}_d`, delivery]], pending: true };
  const notice = notificationWrite(
    ctx,
    {
      type: 'notification.no_provider',
      title: 'Messages are not being sent',
      message: `No notification provider for ${channel} is installed, so ${input.template} to ${input.to} was not sent. Install a notification-provider plugin (for email, e.g. @acme/smtp-email); the delivery history lists what was not sent.`,
      data: { channel, template: input.template },
      dedupeKey: `notification.no_provider:${channel}:${now.toISOString().slice(0, 10)}`,
    },
    sql`exists (select 1 from ${sql.raw(`${name}_d`)})`,
  );
  return {
    writes: [
      [`${name}_d`, delivery],
      [`${name}_n`, notice],
    ],
    pending: false,
  };
}

/** Queues a message in the caller's transaction (messageWrites, in a statement of its own). */
export async function queueMessage(tctx: TxCtx, deps: QueueDeps, input: MessageInput): Promise<void> {
  const { writes, pending } = messageWrites(tctx, deps, input, 'message');
  const [row] = await writeTogether<{ queued: boolean }>(
    tctx.tx,
    writes,
    sql`select exists (select 1 from message_d) as queued`,
  );
  if (row.queued && pending) await tctx.tx.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, '')`);
}
