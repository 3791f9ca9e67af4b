import { decryptSecret, encryptSecret } from '../../platform/crypto.ts';
import { errors } from '../../platform/http/errors.ts';
import type { PluginConfigField } from '../../plugin-package/manifest.ts';

export type ConfigValue = string | number | boolean;
/** A stored value: plain, or `{ enc }` (AES-256-GCM blob of its JSON) for secret fields. */
type Stored = ConfigValue | { enc: string };

export const MASK = '••••';
const MAX_STRING = 10_000;

function isEncrypted(v: unknown): v is { enc: string } {
  return typeof v === 'object' && v !== null && typeof (v as { enc?: unknown }).enc === 'string';
}

function reveal(key: string, v: Stored): ConfigValue {
  return isEncrypted(v) ? (JSON.parse(decryptSecret(key, v.enc)) as ConfigValue) : v;
}

/** `••••` + the last 4 characters; short secrets (under 8) and viewers get `••••` alone. */
export function maskSecret(value: ConfigValue, full = false): string {
  const s = String(value);
  return full || s.length < 8 ? MASK : `${MASK}${s.slice(-4)}`;
}

/** The values the running plugin sees (`ctx.config`): secrets decrypted, unset fields absent. */
export function pluginConfig(
  fields: PluginConfigField[],
  stored: Record<string, unknown>,
  key: string,
): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {};
  for (const f of fields) if (stored[f.key] !== undefined) out[f.key] = reveal(key, stored[f.key] as Stored);
  return out;
}

/** What the admin reads: every field (null when unset), secrets masked; viewers never see any part of a secret. */
export function maskedConfig(
  fields: PluginConfigField[],
  stored: Record<string, unknown>,
  key: string,
  viewer: boolean,
): Record<string, ConfigValue | null> {
  const out: Record<string, ConfigValue | null> = {};
  for (const f of fields) {
    const v = stored[f.key] as Stored | undefined;
    if (v === undefined) out[f.key] = null;
    else if (f.secret || isEncrypted(v)) {
      let plain: ConfigValue | null = null;
      try {
        plain = viewer ? null : reveal(key, v);
      } catch {
        plain = null; // encrypted under another ENCRYPTION_KEY: show the mask, the operator re-enters it
      }
      out[f.key] = plain === null ? MASK : maskSecret(plain);
    } else out[f.key] = v as ConfigValue;
  }
  return out;
}

const required = (f: PluginConfigField) => errors.invalid('plugin_config_required', { key: f.key });

function checkType(f: PluginConfigField, value: unknown): ConfigValue {
  const bad = () => errors.invalid('plugin_config_type', { key: f.key, type: f.type });
  if (f.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw bad();
  } else if (typeof value !== f.type) throw bad();
  if (typeof value === 'string' && value.length > MAX_STRING)
    throw errors.invalid('plugin_config_too_long', { key: f.key, max: MAX_STRING });
  return value as ConfigValue;
}

/**
 * Validates a submission against the manifest's fields and merges it into the stored config:
 * a key sets its value, `null` clears it, an absent key keeps it. A secret sent back exactly as
 * it was shown (masked) stays unchanged; a new secret is encrypted. Returns the new stored form.
 */
export function mergeConfig(
  fields: PluginConfigField[],
  stored: Record<string, unknown>,
  submitted: Record<string, unknown>,
  key: string,
): Record<string, unknown> {
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const unknown = Object.keys(submitted).filter((k) => !byKey.has(k));
  if (unknown.length) {
    const known = fields.length ? fields.map((f) => f.key).join(', ') : 'none';
    throw errors.invalid('plugin_config_unknown', { key: unknown[0], known });
  }
  const next: Record<string, unknown> = { ...stored };
  for (const [k, raw] of Object.entries(submitted)) {
    const f = byKey.get(k)!;
    if (raw === null) {
      delete next[k];
      continue;
    }
    const value = checkType(f, raw);
    if (f.required && value === '') throw required(f);
    if (!f.secret) {
      next[k] = value;
      continue;
    }
    const current = stored[k] as Stored | undefined;
    if (current !== undefined && typeof value === 'string' && value.startsWith(MASK)) {
      let shown: string = MASK;
      try {
        shown = maskSecret(reveal(key, current));
      } catch {
        // undecryptable: only a new value can replace it
      }
      if (value === shown || value === MASK) continue; // sent back as shown: keep the secret
    }
    next[k] = { enc: encryptSecret(key, JSON.stringify(value)) };
  }
  for (const f of fields) {
    const v = next[f.key];
    if (f.required && (v === undefined || v === '')) throw required(f);
  }
  return next;
}
