import { createHmac, randomBytes } from 'node:crypto';
import type { Ctx } from '../../platform/context.ts';
import { decryptSecret, encryptSecret } from '../../platform/crypto.ts';
import * as q from './queries.ts';

/** This instance's random secret, created on first use and shared by every instance on the database. */
async function instanceSecret(ctx: Ctx, encryptionKey: string): Promise<string> {
  let blob = await q.findInstanceSecret(ctx.db);
  if (!blob) {
    await q.insertInstanceSecretIfNone(
      ctx.db,
      encryptSecret(encryptionKey, randomBytes(32).toString('hex')),
      ctx.clock.now(),
    );
    blob = await q.findInstanceSecret(ctx.db);
    if (!blob) throw new Error('instance secret could not be created');
  }
  return decryptSecret(encryptionKey, blob);
}

/**
 * The instance token sent to a marketplace: hex HMAC-SHA256 of the marketplace's
 * URL keyed by the instance secret. Stable toward one marketplace (licenses bind to it), and two
 * marketplaces cannot tell they serve the same shop.
 */
export async function instanceIdFor(ctx: Ctx, encryptionKey: string, marketplaceUrl: string): Promise<string> {
  return createHmac('sha256', await instanceSecret(ctx, encryptionKey))
    .update(marketplaceUrl)
    .digest('hex');
}
