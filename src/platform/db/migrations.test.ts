import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshWorkerDatabase } from '../../../test/database.ts';
import { type Database, MIGRATIONS_DIR, openPglite, openPostgres, rows } from './database.ts';
import { migrationsCurrent, newestMigration } from './migrations.ts';

/**
 * A start with nothing to apply asks one query instead of running drizzle's migrator;
 * a migration added since must still be applied. The database here has its own copy of
 * migrations/, to which the test adds a migration the way `drizzle-kit generate --custom` does.
 */
let work: string;
let dir: string;
let database: Database;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'emporium-migrations-'));
  dir = path.join(work, 'migrations');
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const url = process.env.DATABASE_URL;
  database = url
    ? await openPostgres(await freshWorkerDatabase(url, '_migrations'), 2, 3_000, { migrationsDir: dir })
    : await openPglite(null, { migrationsDir: dir });
});

afterAll(async () => {
  await database?.close();
  rmSync(work, { recursive: true, force: true });
});

const tableExists = async (name: string) =>
  (await rows<{ found: boolean }>(database.db, sql`select to_regclass(${name}) is not null as found`))[0].found;

function addMigration(tag: string, statement: string): void {
  const file = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(file, 'utf8'));
  journal.entries.push({
    idx: journal.entries.length,
    version: '7',
    when: newestMigration(dir) + 1000,
    tag,
    breakpoints: true,
  });
  writeFileSync(file, JSON.stringify(journal, null, 2));
  writeFileSync(path.join(dir, `${tag}.sql`), statement);
}

describe('migrations at start', () => {
  it('a new database is not current; migrate() applies everything and then it is', async () => {
    expect(await migrationsCurrent(database.db, dir)).toBe(false);
    await database.migrate();
    expect(await tableExists('products')).toBe(true);
    expect(await migrationsCurrent(database.db, dir)).toBe(true);
  });

  it('a current database is not migrated again: the migration files are not even read', async () => {
    // drizzle's migrator reads every file the journal lists and fails on a missing one.
    const first = path.join(dir, '0001_foundation.sql');
    renameSync(first, `${first}.away`);
    try {
      await database.migrate();
    } finally {
      renameSync(`${first}.away`, first);
    }
  });

  it('a migration added to migrations/ since is applied at the next start', async () => {
    addMigration('9000_probe', 'create table migration_probe (id int primary key);');
    expect(await migrationsCurrent(database.db, dir)).toBe(false);
    await database.migrate();
    expect(await tableExists('migration_probe')).toBe(true);
    expect(await migrationsCurrent(database.db, dir)).toBe(true);
  });
});
