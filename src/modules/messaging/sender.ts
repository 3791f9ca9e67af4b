import { decryptSecret } from '../../platform/crypto.ts';
import type { DeliveryClient } from '../../platform/delivery/client.ts';
import { DeliveryEngine, type EngineOptions } from '../../platform/delivery/engine.ts';
import type { JsonObject, Providers } from '../../platform/providers.ts';
import { createNotification } from '../notifications/service.ts';
import {
  claimDueDeliveries,
  NOTIFICATIONS_CHANNEL,
  recordDeliveryAttempts,
  releaseDeliveries,
  type DeliveryRow,
} from './queries.ts';
import { providerFor } from './queue.ts';
import { renderTemplate } from './templates.ts';

/**
 * Notification deliveries as a client of the delivery engine: instead of an HTTP POST, each try
 * renders the template and hands the message to the channel's provider (`send`, through its
 * port, with the provider deadline). A throw, a timeout or no provider running is a failed try,
 * retried on the webhook schedule; a dead one tells the admin.
 */
export function notificationClient(providers: Providers, encryptionKey: string): DeliveryClient<DeliveryRow> {
  return {
    name: 'notification',
    claim: (db, o) => claimDueDeliveries(db, { now: o.now, leaseUntil: o.leaseUntil, limit: o.limit }),
    release: releaseDeliveries,
    record: recordDeliveryAttempts,
    groupOf: (d) => d.channel,
    keepResponseBytes: 1024,
    async deliver(d, { timeoutMs }) {
      const port = providerFor(providers, d.channel);
      if (!port) throw new Error(`No notification provider for ${d.channel} is running`);
      const secret = d.secret_data ? (JSON.parse(decryptSecret(encryptionKey, d.secret_data)) as JsonObject) : {};
      const data = { ...(d.data as JsonObject), ...secret };
      const wait = Math.min(timeoutMs, providers.timeoutMs);
      const answer = await port.call(
        'send',
        {
          id: d.id,
          to: d.to,
          channel: d.channel,
          template: d.template,
          data,
          content: renderTemplate(d.template, data),
          attempt: d.attempt_count + 1,
          context: { deadline: Date.now() + wait },
        },
        wait,
      );
      return { response: JSON.stringify({ provider: port.id, id: typeof answer.id === 'string' ? answer.id : null }) };
    },
    onDead: (tctx, d, o) =>
      createNotification(tctx, {
        type: 'notification.failing',
        title: 'A message could not be sent',
        message: `${d.template} to ${d.to} failed ${d.attempt_count + 1} times and was given up: ${o.error ?? 'not sent'}`,
        data: { delivery_id: d.id, template: d.template },
        dedupeKey: `notification.failing:${d.id}`,
      }),
  };
}

/** Sends due notification deliveries: woken on commit (NOTIFY) and by a timer; tests call drain(). */
export class NotificationSender extends DeliveryEngine<DeliveryRow> {
  constructor({
    providers,
    encryptionKey,
    ...opts
  }: Omit<EngineOptions, 'channel' | 'blockPrivate'> & { providers: Providers; encryptionKey: string }) {
    super(
      { ...opts, blockPrivate: false, channel: NOTIFICATIONS_CHANNEL },
      notificationClient(providers, encryptionKey),
    );
  }
}
