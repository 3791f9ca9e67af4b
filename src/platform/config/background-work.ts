import { ConfigError, type Env, intVar } from './env.ts';

/** Outbound deliveries, background jobs and periodic checks (docs/configuration.md "Events, deliveries and jobs"). */
export interface BackgroundWorkConfig {
  /** Outbound deliveries (webhooks, license callbacks): a receiver must answer within this. */
  deliveryTimeoutMs: number;
  /** How long a claimed delivery stays with the instance that claimed it (a crashed one's are retried after). */
  deliveryLeaseMs: number;
  /** Background jobs (imports, exports): how long a claim holds unrenewed; a dead instance's job moves on after it. */
  jobLeaseMs: number;
  /** Lets production webhooks target loopback, private and link-local addresses (refused by default there). */
  webhookAllowPrivate: boolean;
  /** How often each instance looks for carts idle for an hour (cart.abandoned). */
  cartAbandonmentCheckMs: number;
}

export function backgroundWorkConfig(env: Env): BackgroundWorkConfig {
  const deliveryTimeoutMs = intVar(env, 'DELIVERY_TIMEOUT_MS', 30_000);
  const deliveryLeaseMs = intVar(env, 'DELIVERY_LEASE_MS', deliveryTimeoutMs + 30_000);
  // The engine starts a send only while the lease still covers the whole timeout plus 5 s.
  if (deliveryLeaseMs < deliveryTimeoutMs + 6_000)
    throw new ConfigError('DELIVERY_LEASE_MS must exceed DELIVERY_TIMEOUT_MS by at least 6000');
  return {
    deliveryTimeoutMs,
    deliveryLeaseMs,
    jobLeaseMs: Math.max(300, intVar(env, 'JOB_LEASE_MS', 30_000)),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
    cartAbandonmentCheckMs: Math.max(100, intVar(env, 'CART_ABANDONMENT_CHECK_MS', 60_000)),
  };
}
