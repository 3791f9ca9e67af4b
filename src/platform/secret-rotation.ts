import { sql, type SQL } from 'drizzle-orm';
import { rows, type Db, type Executor } from './db/database.ts';
import { decryptSecret, encryptionKeyId, encryptSecret, isCurrentSecret } from './crypto.ts';

/**
 * Every column holding a secret encrypted with platform/crypto.ts, named by table and key column.
 * A new encrypted column goes here, or `emporium rotate-encryption-key` leaves it under the old key
 * (secret-rotation.test.ts fails when a table's encrypted column is missing from this list).
 */
export const ENCRYPTED_COLUMNS: { table: string; key: string; column: string; json?: boolean }[] = [
  { table: 'webhook_subscriptions', key: 'id', column: 'secret_encrypted' },
  { table: 'plugins', key: 'id', column: 'license_key' },
  // Operator configuration: secret fields are `{ "enc": <blob> }` values (plugins/config-values.ts).
  { table: 'plugins', key: 'id', column: 'config', json: true },
  { table: 'notification_deliveries', key: 'id', column: 'secret_data' },
  { table: 'instance_identity', key: 'id', column: 'secret_encrypted' },
  { table: 'marketplace_signing_keys', key: 'key_id', column: 'private_key_encrypted' },
];

export interface RotationReport {
  keyId: string;
  /** Per `table.column`: values re-encrypted, and values already under the current key. */
  columns: { name: string; rotated: number; current: number }[];
}

type Row = { k: string | number; v: unknown };

function reencryptJson(key: string, value: Record<string, unknown>): { next: Record<string, unknown>; n: number } {
  const next: Record<string, unknown> = {};
  let n = 0;
  for (const [field, v] of Object.entries(value)) {
    const enc = typeof v === 'object' && v !== null ? (v as { enc?: unknown }).enc : undefined;
    if (typeof enc === 'string' && !isCurrentSecret(key, enc)) {
      next[field] = { enc: encryptSecret(key, decryptSecret(key, enc)) };
      n++;
    } else next[field] = v;
  }
  return { next, n };
}

async function rotateColumn(tx: Executor, key: string, c: (typeof ENCRYPTED_COLUMNS)[number]) {
  const table = sql.identifier(c.table);
  const keyCol = sql.identifier(c.key);
  const col = sql.identifier(c.column);
  // FOR UPDATE: a serving instance changing one of these rows meanwhile waits for our commit, then
  // writes its own value (under the current key); it never overwrites ours with a stale copy.
  const found = await rows<Row>(
    tx,
    sql`select ${keyCol} as k, ${col} as v from ${table} where ${col} is not null order by ${keyCol} for update`,
  );
  let rotated = 0;
  let current = 0;
  for (const r of found) {
    let update: SQL | null = null;
    try {
      if (c.json) {
        const { next, n } = reencryptJson(key, r.v as Record<string, unknown>);
        if (n) update = sql`${JSON.stringify(next)}::jsonb`;
        rotated += n;
      } else if (isCurrentSecret(key, r.v as string)) current++;
      else {
        update = sql`${encryptSecret(key, decryptSecret(key, r.v as string))}`;
        rotated++;
      }
    } catch (err) {
      throw new Error(
        `${c.table}.${c.column} of ${c.key} ${r.k}: ${(err as Error).message}. Nothing was changed: set ENCRYPTION_KEY_PREVIOUS to the key these secrets were written under.`,
      );
    }
    if (update) await tx.execute(sql`update ${table} set ${col} = ${update} where ${keyCol} = ${r.k}`);
  }
  return { name: `${c.table}.${c.column}`, rotated, current };
}

/**
 * Re-encrypts every stored secret under `key` (ENCRYPTION_KEY) in one transaction: values under
 * ENCRYPTION_KEY_PREVIOUS (registered by loadConfig) or in the old key-less format are decrypted and
 * written again; values already under `key` are left alone, so a second run changes nothing. Any
 * value neither key opens aborts the whole transaction: nothing is half-rotated.
 */
export async function rotateEncryptionKey(db: Db, key: string): Promise<RotationReport> {
  const columns = await db.transaction(async (tx) => {
    const out: RotationReport['columns'] = [];
    for (const c of ENCRYPTED_COLUMNS) out.push(await rotateColumn(tx, key, c));
    return out;
  });
  return { keyId: encryptionKeyId(key), columns };
}
