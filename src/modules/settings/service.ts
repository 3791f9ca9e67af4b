import { executor, type Ctx, type TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import * as q from './queries.ts';

export interface Setting {
  key: string;
  value: string;
  updated_at: Date;
}

/** The settings key format; the body schema carries it too, this guards internal callers. */
export const SETTING_KEY_PATTERN = '^[a-z0-9][a-z0-9_.-]{0,99}$';
const KEY = new RegExp(SETTING_KEY_PATTERN);
/** 64 KiB of UTF-8, checked in bytes: the schema's maxLength counts characters. */
export const MAX_VALUE_BYTES = 64 * 1024;

function toSetting(row: q.SettingRow): Setting {
  return { key: row.key, value: row.value, updated_at: row.updated_at };
}

export async function listSettings(ctx: Ctx): Promise<Setting[]> {
  return (await q.listSettingRows(ctx.db)).map(toSetting);
}

/** The value stored under key, or null: for other modules, which decide their own defaults. */
export async function getSetting(ctx: Ctx | TxCtx, key: string): Promise<string | null> {
  return (await q.findSetting(executor(ctx), key))?.value ?? null;
}

const notFound = (key: string) => errors.notFound('setting_not_found', { key });

export async function retrieveSetting(ctx: Ctx, key: string): Promise<Setting> {
  const row = await q.findSetting(ctx.db, key);
  if (!row) throw notFound(key);
  return toSetting(row);
}

/** Creates or replaces the value of key, recording who wrote it. */
export async function setSetting(ctx: Ctx | TxCtx, key: string, value: string): Promise<Setting> {
  if (!KEY.test(key)) throw errors.invalid('setting_key_invalid', { pattern: SETTING_KEY_PATTERN });
  if (Buffer.byteLength(value, 'utf8') > MAX_VALUE_BYTES) {
    throw errors.invalid('setting_value_too_large', { max: MAX_VALUE_BYTES });
  }
  const row = await q.upsertSetting(executor(ctx), {
    key,
    value,
    updated_at: ctx.clock.now(),
    updated_by: ctx.actor?.id ?? null,
  });
  return toSetting(row);
}

export async function deleteSetting(ctx: Ctx, key: string): Promise<{ id: string; object: 'setting'; deleted: true }> {
  if (!(await q.deleteSettingRow(ctx.db, key))) throw notFound(key);
  return { id: key, object: 'setting', deleted: true };
}
