import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { salesChannels } from '../sales-channels/tables.ts';
import { apiKeySalesChannels, apiKeys } from './tables.ts';

const k = tableAs(apiKeys, 'k');
const l = tableAs(apiKeySalesChannels, 'l');
const sc = tableAs(salesChannels, 'sc');

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A live, unrevoked publishable key with the ids of its live sales channels, in one query (on the
 * declared tables, so a renamed column fails the typecheck);
 * `revokes_at_ms` is set when a revocation is scheduled, so a cache can expire the key then.
 */
export async function findPublishableScope(
  db: Executor,
  token: string,
  now: Date,
): Promise<{ id: string; sales_channel_ids: string[]; revokes_at_ms: number | null } | undefined> {
  const [row] = await rows<{ id: string; sales_channel_ids: string[]; revokes_at_ms: number | null }>(
    db,
    sql`select ${k.id},
          coalesce(array_agg(${sc.id} order by ${sc.id}) filter (where ${sc.id} is not null), '{}') as sales_channel_ids,
          (extract(epoch from ${k.revoked_at}) * 1000)::float8 as revokes_at_ms
        from ${from(k)}
        left join ${from(l)} on ${l.api_key_id} = ${k.id}
        left join ${from(sc)} on ${sc.id} = ${l.sales_channel_id} and ${sc.deleted_at} is null
        where ${k.token_hash} = ${hashToken(token)} and ${k.type} = 'publishable' and ${k.deleted_at} is null
          and (${k.revoked_at} is null or ${k.revoked_at} > ${now.toISOString()}::timestamptz)
        group by ${k.id}`,
  );
  return row;
}

/** The id of a live secret key with this token that is not revoked (a scheduled revocation counts from its time). */
export async function findSecretKeyActor(db: Executor, token: string, now: Date): Promise<string | null> {
  const [row] = await rows<{ id: string }>(
    db,
    sql`select id from api_keys where token_hash = ${hashToken(token)} and type = 'secret' and deleted_at is null
        and (revoked_at is null or revoked_at > ${now.toISOString()}::timestamptz)`,
  );
  return row?.id ?? null;
}
