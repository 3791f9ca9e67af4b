import type { RawRow } from './typed-sql.ts';

/**
 * Rows read inside JSON (`json_agg`, `to_json`) carry timestamps as text with the session's
 * offset; the drivers give Date everywhere else. These put the Dates back.
 */
export const jsonDate = (v: unknown): Date | null => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

/**
 * A row read inside JSON (`to_json(row)`), its `created_at` and `updated_at` back as Date: the
 * only timestamps of the rows read so (lines, methods, payment collections and sessions,
 * regions), or the only ones their readers use.
 */
export function withJsonDates<T extends { created_at: Date; updated_at: Date }>(r: RawRow<T>): T {
  const row = { ...r, created_at: jsonDate(r.created_at)!, updated_at: jsonDate(r.updated_at)! };
  // RawRow<T> differs from T only in its Date columns; the two above are Dates again.
  return row as T;
}

/**
 * A JSON value with its objects' keys in the order jsonb keeps them (shorter keys first, then
 * byte order), so an object built in JS reads as the stored column would: a view made without
 * reading the row back must not differ from one read later.
 */
export function asStoredJson<T>(v: T): T {
  if (Array.isArray(v)) return v.map(asStoredJson) as T;
  if (v === null || typeof v !== 'object' || v instanceof Date) return v;
  const keys = Object.keys(v).sort(
    (a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  return Object.fromEntries(keys.map((k) => [k, asStoredJson((v as Record<string, unknown>)[k])])) as T;
}
