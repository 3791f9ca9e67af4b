/**
 * Rows read inside JSON (`json_agg`, `to_json`) carry timestamps as text with the session's
 * offset; the drivers give Date everywhere else. These put the Dates back.
 */
export const jsonDate = (v: unknown): Date | null => (v == null ? null : v instanceof Date ? v : new Date(String(v)));

export const withJsonDates = <T extends { created_at: unknown; updated_at: unknown }>(r: T): T => ({
  ...r,
  created_at: jsonDate(r.created_at),
  updated_at: jsonDate(r.updated_at),
});
