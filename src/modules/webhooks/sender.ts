import { decryptSecret } from '../../platform/crypto.ts';
import type { DeliveryClient } from '../../platform/delivery/client.ts';
import { DeliveryEngine, type EngineOptions } from '../../platform/delivery/engine.ts';
import { createNotification } from '../notifications/service.ts';
import { claimDueDeliveries, recordAttempts, releaseClaims, type ClaimedDelivery } from './delivery-queries.ts';
import { urlForViewer } from './service.ts';
import { signatureHeader } from './sign.ts';

export interface SenderOptions extends Omit<EngineOptions, 'perGroup' | 'channel'> {
  encryptionKey: string;
  /** In flight at most per subscription (default 32), so one hanging receiver cannot take the whole pool. */
  perSubscription?: number;
}

/** Past this many distinct secret blobs the cache starts over (a blob per subscription and secret). */
const SECRET_CACHE_SIZE = 1000;

/**
 * The webhook ledger as a client of the delivery engine: deliveries per subscription (the
 * pool's group), the stored event body signed with the subscription's HMAC secret, an attempt
 * row per try, and an admin notification when a delivery is dead.
 */
export function webhookClient(encryptionKey: string): DeliveryClient<ClaimedDelivery> {
  /** Decrypted secrets by their stored blob (a changed secret is a new blob), so each is decrypted once. */
  const secrets = new Map<string, string>();
  const secretOf = (blob: string): string => {
    let secret = secrets.get(blob);
    if (secret === undefined) {
      secret = decryptSecret(encryptionKey, blob);
      if (secrets.size >= SECRET_CACHE_SIZE) secrets.clear();
      secrets.set(blob, secret);
    }
    return secret;
  };
  return {
    name: 'webhook',
    claim: (db, o) =>
      claimDueDeliveries(db, {
        now: o.now,
        leaseUntil: o.leaseUntil,
        limit: o.limit,
        perSubscription: o.perGroup,
        room: o.room,
      }),
    release: releaseClaims,
    record: recordAttempts,
    groupOf: (d) => d.subscription_id,
    keepResponseBytes: 1024,
    // Deactivated or deleted after this was queued: closed without an attempt.
    cancelled: (d) => !d.live,
    request: (d, now) => ({
      url: d.url,
      body: d.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Emporium-Webhooks/1',
        'x-service-event': d.event,
        'x-service-delivery-id': d.id,
        'x-service-signature': signatureHeader(secretOf(d.secret_encrypted), now, d.body),
      },
    }),
    // Viewers read notifications too: the message names the target as they may see it (no credentials).
    onDead: (tctx, d, o) =>
      createNotification(tctx, {
        type: 'webhook.failing',
        title: 'Webhook endpoint failing',
        message: `Delivery ${d.id} of ${d.event} to ${urlForViewer(d.url)} failed ${d.attempt_count + 1} times and was moved to the dead-letter list: ${o.error ?? `HTTP ${o.statusCode}`}`,
        data: { webhook_id: d.subscription_id, delivery_id: d.id },
      }),
  };
}

/**
 * Sends due webhook deliveries: woken by kick() after fan-out and by a timer for retries;
 * tests call drain().
 */
export class WebhookSender extends DeliveryEngine<ClaimedDelivery> {
  constructor({ encryptionKey, perSubscription, ...opts }: SenderOptions) {
    super({ ...opts, perGroup: perSubscription }, webhookClient(encryptionKey));
  }
}
