import type { TxCtx } from '../../platform/context.ts';
import { encryptSecret } from '../../platform/crypto.ts';
import { newId } from '../../platform/ids.ts';
import type { ProviderPort, Providers } from '../../platform/providers.ts';
import { createNotification } from '../notifications/service.ts';
import { insertDelivery } from './queries.ts';

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
 * Queues a message in the caller's transaction (it exists exactly when the change that caused it
 * commits), due now for the sender. Without a provider for its channel the message is recorded
 * `not_sent` instead, and the admin gets one notification a day saying so. Answers whether the
 * sender has something new to send.
 */
export async function queueMessage(tctx: TxCtx, deps: QueueDeps, input: MessageInput): Promise<boolean> {
  const channel = input.channel ?? 'email';
  const sender = providerFor(deps.providers, channel);
  const now = tctx.clock.now();
  const queued = await insertDelivery(tctx.tx, {
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
  if (queued && !sender)
    await createNotification(tctx, {
      type: 'notification.no_provider',
      title: 'Messages are not being sent',
      message: `No notification provider for ${channel} is installed, so ${input.template} to ${input.to} was not sent. Install a notification-provider plugin (for email, e.g. @acme/smtp-email); the delivery history lists what was not sent.`,
      data: { channel, template: input.template },
      dedupeKey: `notification.no_provider:${channel}:${now.toISOString().slice(0, 10)}`,
    });
  return queued && !!sender;
}
