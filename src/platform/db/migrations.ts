import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Handle } from './handle.ts';

type Runner = Pick<Handle, 'execute'>;

/**
 * The `when` of the newest migration in drizzle-kit's journal (`meta/_journal.json`), which
 * lists every migration file with the time it was generated.
 */
export function newestMigration(dir: string): number {
  const journal = JSON.parse(readFileSync(path.join(dir, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/**
 * Whether the database has every migration of `dir` already: one small query instead of the
 * migrator's reading and hashing of every file and its three statements (most starts
 * have nothing to apply). It is the migrator's own test: drizzle applies the journal entries
 * newer than the newest `created_at` it recorded, so when that is not older than the journal's
 * newest entry, the migrator would apply nothing. A database the migrator never ran on (no
 * journal table yet) is not current.
 */
export async function migrationsCurrent(db: Runner, dir: string): Promise<boolean> {
  const newest = newestMigration(dir);
  let applied: unknown;
  try {
    const res = await db.execute(sql`select max(created_at) as created_at from drizzle.__drizzle_migrations`);
    applied = res.rows[0]?.created_at;
  } catch {
    return false; // no journal table yet; anything else, the migrator meets and reports
  }
  return applied !== null && applied !== undefined && Number(applied) >= newest;
}
