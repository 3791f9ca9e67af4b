/**
 * Plugin versions are "dotted numeric": one to four non-negative integers without leading
 * zeros (`1`, `1.2`, `1.10.0`, `2.0.0.1`). They compare numerically, segment by segment, and a
 * missing segment counts as 0, so `1.0` equals `1.0.0` (both may not be published).
 */
export const VERSION_PATTERN = '^(0|[1-9][0-9]{0,8})(\\.(0|[1-9][0-9]{0,8})){0,3}$';
const VERSION = new RegExp(VERSION_PATTERN);

export function isVersion(value: string): boolean {
  return VERSION.test(value);
}

function segments(version: string): number[] {
  if (!isVersion(version)) throw new Error(`"${version}" is not a dotted numeric version`);
  return version.split('.').map(Number);
}

/** -1, 0 or 1, as `a` is older than, equal to or newer than `b` (1.10.0 > 1.9.9; 1.0 == 1.0.0). */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const x = segments(a);
  const y = segments(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/**
 * A text that sorts like the version (four zero-padded segments): lets SQL order versions and
 * a unique index refuse `1.0.0` once `1.0` exists.
 */
export function versionSortKey(version: string): string {
  const s = segments(version);
  while (s.length < 4) s.push(0);
  return s.map((n) => String(n).padStart(9, '0')).join('.');
}
