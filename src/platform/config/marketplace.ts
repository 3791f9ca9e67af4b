import { parseDurationSeconds } from '../duration.ts';
import { ConfigError, type Env, intVar } from './env.ts';

/** Marketplace role: how submitted versions are test-installed and vendors paid (docs/configuration.md). */
export interface MarketplaceConfig {
  /** The time bound of a submitted version's sandboxed test install (MARKETPLACE_REVIEW_INSTALL_MS). */
  reviewInstallMs: number;
  /** How often vendors are paid out (MARKETPLACE_PAYOUT_EVERY, a duration; null = only by hand). */
  payoutEveryMs: number | null;
}

export function marketplaceConfig(env: Env): MarketplaceConfig {
  return {
    reviewInstallMs: Math.max(500, intVar(env, 'MARKETPLACE_REVIEW_INSTALL_MS', 30_000)),
    payoutEveryMs: payoutEvery(env),
  };
}

/** MARKETPLACE_PAYOUT_EVERY: `1d` by default (`24h`, `7d`, `90m`…), `off` for runs by hand only. */
function payoutEvery(env: Env): number | null {
  const raw = env.MARKETPLACE_PAYOUT_EVERY?.trim();
  if (raw === 'off') return null;
  if (!raw) return 86_400_000;
  const seconds = parseDurationSeconds(raw);
  if (seconds === null)
    throw new ConfigError(`MARKETPLACE_PAYOUT_EVERY must be a duration such as 1d, 12h or 30m, or off (got "${raw}")`);
  return seconds * 1000;
}
