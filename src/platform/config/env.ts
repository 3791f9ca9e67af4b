import { parseIpRange } from '../http/client-ip.ts';

/**
 * What every part of the configuration reads the environment with: the variables as given, and
 * the parsers that name the variable in the message when its value is refused (the start stops there).
 */

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {}

export function intVar(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** A PostgreSQL memory size such as `16MB`, passed to the embedded database as it is. */
export function memorySize(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (!/^[1-9]\d*(kB|MB|GB)$/.test(raw))
    throw new ConfigError(`${name} must look like 16MB, 512kB or 1GB, got "${raw}"`);
  return raw;
}

/** A comma-separated list (origins, locales), trimmed, without trailing slashes or empty entries. */
export function originList(raw: string | undefined, fallback: string): string[] {
  return (raw ?? fallback)
    .split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter(Boolean);
}

export function ipList(env: Env, name: string, fallback: string): string[] {
  const entries = originList(env[name], fallback);
  for (const entry of entries) {
    try {
      parseIpRange(entry);
    } catch {
      throw new ConfigError(`${name} must list IP addresses or CIDR ranges, got "${entry}"`);
    }
  }
  return entries;
}
