import type { JsonObject, JsonValue } from '../../plugin-sdk/json.ts';

/**
 * `value` checked to be JSON, for what crosses to a plugin's process (a provider's input): the
 * data of payment sessions is stored as jsonb and validated as JSON when a shopper sends it, so
 * this never fails in practice; a Date, a function or an `undefined` inside it would be a bug
 * here, and throws before it reaches the plugin.
 */
export function jsonObjectOf(value: Record<string, unknown>): JsonObject {
  if (!isJsonObject(value)) throw new TypeError('A provider input must be plain JSON');
  return value;
}

function isJsonObject(v: unknown): v is JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && Object.values(v).every(isJson);
}

function isJson(v: unknown): v is JsonValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.every(isJson);
  return isJsonObject(v);
}
