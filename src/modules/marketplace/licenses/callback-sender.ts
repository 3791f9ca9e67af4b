import type { Ctx } from '../../../platform/context.ts';
import type { DeliveryClient } from '../../../platform/delivery/client.ts';
import { DeliveryEngine, type EngineOptions } from '../../../platform/delivery/engine.ts';
import { createNotification } from '../../notifications/service.ts';
import {
  CALLBACK_CHANNEL,
  claimDueCallbacks,
  recordCallbackAttempts,
  releaseCallbacks,
  type CallbackRow,
} from './callback-queries.ts';
import { callbackSignature } from './callback-signature.ts';
import { ensureSigningKey, type SigningKey } from '../keys/signing-keys.ts';

export interface CallbackSenderOptions extends Omit<EngineOptions, 'perGroup' | 'channel'> {
  encryptionKey: string;
}

/** A claimed callback with the key that signs it (read once per claim, not per request). */
type ClaimedCallback = CallbackRow & { key: SigningKey };

/**
 * license-issued callbacks as a client of the delivery engine: one row per paid checkout, sent
 * to the shop's callback URL (the pool's group) with an Ed25519 X-Service-Signature made at send
 * time (shops reject signatures older than 5 minutes), and an operator notification when dead.
 * Callbacks are few (one per purchase): the claim takes the oldest due ones and leaves the
 * per-shop share to the pool.
 */
export function callbackClient(ctx: Ctx, encryptionKey: string): DeliveryClient<ClaimedCallback> {
  return {
    name: 'license callback',
    async claim(db, o) {
      const claimed = await claimDueCallbacks(db, { now: o.now, leaseUntil: o.leaseUntil, limit: o.limit });
      if (!claimed.length) return [];
      const key = await ensureSigningKey(ctx, encryptionKey);
      return claimed.map((c) => ({ ...c, key }));
    },
    release: releaseCallbacks,
    record: recordCallbackAttempts,
    groupOf: (c) => c.url,
    keepResponseBytes: 0,
    request: (c, now) => ({
      url: c.url,
      body: c.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Emporium-Marketplace/1',
        'x-service-event': 'license.issued',
        'x-service-delivery-id': c.id,
        'x-service-key-id': c.key.keyId,
        'x-service-signature': callbackSignature(c.key, now, c.body),
      },
    }),
    // The shop can still pull the key from GET /store/marketplace/checkout/session/{id}; the operator should know.
    onDead: (tctx, c, o) =>
      createNotification(tctx, {
        type: 'marketplace.callback_failed',
        title: 'License callback failing',
        message: `license-issued for checkout ${c.checkout_session_id} to ${c.url} failed ${c.attempt_count + 1} times and was given up: ${o.error ?? `HTTP ${o.statusCode}`}`,
        data: { checkout_session_id: c.checkout_session_id, callback_id: c.id },
        dedupeKey: `marketplace.callback_failed:${c.id}`,
      }),
  };
}

/**
 * Sends license-issued callbacks to shops (marketplace role): woken by the NOTIFY of a committed
 * completion and by a timer for retries, retried on the webhook schedule (1m, 5m, 30m, 2h, 12h), then dead.
 */
export class LicenseCallbackSender extends DeliveryEngine<ClaimedCallback> {
  constructor({ encryptionKey, ...opts }: CallbackSenderOptions) {
    super(
      { ...opts, channel: CALLBACK_CHANNEL },
      callbackClient({ db: opts.database.db, clock: opts.clock, log: opts.log }, encryptionKey),
    );
  }
}
