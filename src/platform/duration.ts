const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/**
 * Parses `"24h"`, `"1d"`, `"90m"`, `"3600s"` or a bare number of seconds into seconds.
 * Returns null for anything else so config loading can name the bad variable.
 */
export function parseDurationSeconds(text: string): number | null {
  const m = /^\s*(\d+)\s*([smhd]?)\s*$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]) * UNITS[m[2] || 's'];
  return n > 0 ? n : null;
}
