import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { inTx, type Ctx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { salesChannels } from '../sales-channels/tables.ts';
import { hashToken } from './lookup.ts';
import { apiKeySalesChannels, apiKeys } from './tables.ts';

export function newApiKeyToken(type: 'publishable' | 'secret'): string {
  return `${type === 'publishable' ? 'pk' : 'sk'}_${randomBytes(32).toString('hex')}`;
}

/** `pk_1234…abcd`: enough to recognise a key in a list without showing a secret one. */
export function redactToken(token: string): string {
  return `${token.slice(0, 7)}***${token.slice(-4)}`;
}

/**
 * First start: a "Default Sales Channel" and a publishable key linked to it, so the store
 * answers right away. Returns the first live publishable key's token for the start-up log.
 */
export async function ensureDefaultStoreAccess(ctx: Ctx): Promise<{ token: string; created: boolean } | null> {
  return inTx(ctx, async ({ tx, clock }) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7300002)`);
    const [anyChannel] = await tx.select({ id: salesChannels.id }).from(salesChannels).limit(1);
    if (!anyChannel) {
      const now = clock.now();
      const channelId = newId('sc');
      await tx.insert(salesChannels).values({
        id: channelId,
        name: 'Default Sales Channel',
        description: 'Created by default',
        created_at: now,
        updated_at: now,
      });
      const token = newApiKeyToken('publishable');
      const keyId = newId('apk');
      await tx.insert(apiKeys).values({
        id: keyId,
        title: 'Default Publishable API Key',
        type: 'publishable',
        token,
        token_hash: hashToken(token),
        redacted: redactToken(token),
        created_at: now,
        updated_at: now,
      });
      await tx.insert(apiKeySalesChannels).values({ api_key_id: keyId, sales_channel_id: channelId });
      return { token, created: true };
    }
    const [key] = await rows<{ token: string }>(
      tx,
      sql`select token from api_keys where type = 'publishable' and deleted_at is null and revoked_at is null order by id limit 1`,
    );
    return key ? { token: key.token, created: false } : null;
  });
}
