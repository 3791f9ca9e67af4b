import type { Ctx } from '../../platform/context.ts';
import type { Config } from '../../platform/config.ts';
import { marketplaceClient, MarketplaceError } from './client.ts';
import { instanceIdFor } from './instance-id.ts';

export interface CrashRollback {
  marketplaceId: string;
  /** The version that crash-looped. */
  version: string;
  rolledBackTo: string;
  reason: string;
}

/**
 * Tells the marketplace that a version crash-looped here and was rolled back, so its vendor sees
 * crash reports per version. Sends the marketplace id, the versions, the instance token and the
 * crash reason (its first 500 characters); best effort: a marketplace that is down is only logged.
 */
export async function reportCrashRollback(ctx: Ctx, config: Config, r: CrashRollback): Promise<boolean> {
  const client = marketplaceClient(config.federation);
  if (!client) return false;
  try {
    await client.postJson('/store/marketplace/crash-reports', {
      marketplace_id: r.marketplaceId,
      version: r.version,
      rolled_back_to: r.rolledBackTo,
      reason: r.reason.slice(0, 500),
      instance_id: await instanceIdFor(ctx, config.encryptionKey, client.url),
    });
    return true;
  } catch (err) {
    if (!(err instanceof MarketplaceError)) throw err;
    ctx.log.warn({ plugin: r.marketplaceId, err: err.message }, 'crash report not delivered to the marketplace');
    return false;
  }
}
