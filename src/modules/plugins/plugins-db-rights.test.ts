import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { installAndWait, packPlugin, pluginSlug, startPluginShop } from './plugins.testing.ts';
import { inPluginSchema, schemaNameOf } from './raw-db.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ t, env } = await startPluginShop(null));
});
afterAll(() => t.close());

/** A plugin whose admin route runs whatever SQL it is sent, answering the rows or the error. */
const SQL_RUNNER = `export default { register(ctx) {
  ctx.routes.admin('POST', '/sql', async (req) => {
    try { return { rows: await ctx.db.query(req.body.sql) }; }
    catch (err) { return { error: { code: err.code ?? null, message: String(err.message) } }; }
  });
} };`;

async function install(id: string, migration: string, vendor = 'tests') {
  const bytes = await packPlugin(
    { id, vendor, server: 'server/index.js', migrations: 'migrations', permissions: { routes: { admin: true } } },
    { 'server/index.js': SQL_RUNNER, 'migrations/0001.sql': migration },
  );
  writeFileSync(path.join(env.PLUGINS_DIR, `${id}.tgz`), bytes);
  return installAndWait(t, `@${vendor}/${id}`);
}

const run = async (id: string, text: string) =>
  (await t.admin('POST', `/admin/plugins/${id}/sql`, { sql: text })).json();

describe("a plugin's database rights, enforced by PostgreSQL", () => {
  let a: string;
  let b: string;
  beforeAll(async () => {
    a = pluginSlug('db-a');
    b = pluginSlug('db-b');
    expect((await install(a, 'create table mine (x int);')).status).toBe('installed');
    expect((await install(b, 'create table theirs (x int);')).status).toBe('installed');
  });

  it('works in its own schema, as its own role', async () => {
    expect(await run(a, 'insert into mine values (1) returning x')).toEqual({ rows: [{ x: 1 }] });
    expect(await run(a, 'select current_user as who')).toEqual({ rows: [{ who: schemaNameOf(a) }] });
  });

  it.each(['select * from public.customers', 'select * from public.users', 'select * from public.plugins'])(
    'is refused the shop’s tables: %s',
    async (text) => {
      expect(await run(a, text)).toEqual({
        error: { code: '42501', message: expect.stringMatching(/^permission denied for table/) },
      });
    },
  );

  it("cannot read or write another plugin's schema", async () => {
    for (const text of [
      `insert into ${schemaNameOf(b)}.theirs values (1)`,
      `select * from ${schemaNameOf(b)}.theirs`,
    ]) {
      expect(await run(a, text)).toEqual({
        error: { code: '42501', message: expect.stringContaining('permission denied for schema') },
      });
    }
  });

  it('cannot switch back to the shop’s role', async () => {
    for (const text of [
      'reset role',
      "select set_config('role', 'postgres', true)",
      'set role postgres',
      "create function up() returns text language sql return set_config('role', 'postgres', true)",
      "update pg_settings set setting = 'postgres' where name = 'role'",
      "create domain pg_temp.text as pg_catalog.text check (value <> '')",
    ]) {
      expect((await run(a, text)).error?.message, text).toMatch(/^Plugin SQL refused/);
    }
    expect(await run(a, 'select current_user as who')).toEqual({ rows: [{ who: schemaNameOf(a) }] });
  });

  // PostgreSQL before 18 (CI's server) ran it as the shop's user once the host had reset the role.
  it('a trigger it deferred to the commit runs as the plugin, not as the shop’s user', async () => {
    const id = pluginSlug('db-deferred');
    const own = schemaNameOf(id);
    const row = await install(
      id,
      `create table t (x int);
       create table ran_as (who text);
       create function note_who() returns trigger language plpgsql as $$
         begin insert into ${own}.ran_as values (current_user); return null; end $$;
       create constraint trigger late after insert on t deferrable initially deferred
         for each row execute function note_who();`,
    );
    expect(row.status).toBe('installed');
    expect(await run(id, 'insert into t values (1)')).toEqual({ rows: [] });
    expect(await run(id, 'select who from ran_as')).toEqual({ rows: [{ who: own }] });
  });

  /** The settings the shop's queries run with (PGlite's search_path is `public`, PostgreSQL's `"$user", public`). */
  const shopSettings = async () =>
    (
      await rows<Record<string, string>>(
        t.database.db,
        sql`select current_setting('search_path') as path, current_setting('statement_timeout') as timeout, current_user as who`,
      )
    )[0];

  it('leaves nothing on the shop’s connection that outlives its transaction', async () => {
    const own = schemaNameOf(a);
    const before = await shopSettings();
    // A table of the plugin's own named like the shop's: the shop would read it only if its
    // unqualified names resolved to the plugin's schema (or a temporary table) after the plugin ran.
    expect(await run(a, 'create table api_keys (id text)')).toEqual({ rows: [] });
    for (const text of [
      `set search_path to "${own}", public`,
      `set/**/search_path/**/to "${own}"`,
      `do $$ begin set search_path to "${own}"; end $$`,
      `select U&"set\\005fconfig"('search_path', '${own}', false)`,
      'create temp table api_keys (id text)',
      'deallocate all',
      'unlisten *',
    ]) {
      expect((await run(a, text)).error?.message, text).toMatch(/^Plugin SQL refused/);
    }
    expect(await shopSettings()).toEqual(before);
    expect((await t.admin('GET', '/admin/api-keys')).statusCode).toBe(200);
  });

  // On PGlite every query shares one connection, so the shop's next query shows what a plugin's left.
  it.skipIf(!!process.env.DATABASE_URL)(
    'the host resets what a plugin transaction changed before it commits',
    async () => {
      const own = schemaNameOf(a);
      const before = await shopSettings();
      await inPluginSchema(t.database, own, (tx) => tx.exec(`set search_path to "${own}"; set statement_timeout = 1`));
      expect(await shopSettings()).toEqual(before);
    },
  );

  it('a migration runs as the plugin too: one that reads public.customers fails the install', async () => {
    const row = await install(pluginSlug('db-evil'), 'create table stolen as select * from public.customers;');
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/Migration 0001.sql failed: permission denied for table customers/);
  });

  it('a schema kept from an uninstall goes back to the same plugin only, not to another vendor’s of the same id', async () => {
    const id = pluginSlug('db-kept');
    const first = await install(id, 'create table points (email text, n int);', 'acme');
    expect(first.status).toBe('installed');
    expect(await run(id, "insert into points values ('alice@example.com', 100) returning n")).toEqual({
      rows: [{ n: 100 }],
    });
    expect((await t.admin('DELETE', `/admin/plugins/${first.id}`)).statusCode).toBe(200);

    // Another vendor's package with the same manifest id: refused before any of its code runs.
    const other = await install(id, 'create table if not exists points (email text, n int);', 'evil');
    expect(other.status).toBe('failed');
    expect(other.error).toContain(`holds the data of @acme/${id}`);
    expect((await t.admin('POST', `/admin/plugins/${id}/sql`, { sql: 'select * from points' })).statusCode).toBe(404);
    await t.admin('DELETE', `/admin/plugins/${other.id}`);

    // The same vendor's plugin gets its data back; once the operator drops it, the name is free.
    const again = await install(id, 'create table if not exists points (email text, n int);', 'acme');
    expect(await run(id, 'select n from points')).toEqual({ rows: [{ n: 100 }] });
    await t.admin('DELETE', `/admin/plugins/${again.id}`);
    await rows(t.database.db, sql.raw(`drop schema "${schemaNameOf(id)}" cascade`));
    expect((await install(id, 'create table points (email text, n int);', 'evil')).status).toBe('installed');
    expect(await run(id, 'select count(*)::int as n from points')).toEqual({ rows: [{ n: 0 }] });
  });

  it('uninstall keeps the tables and the role that owns them (not the shop’s user); a reinstall hands them back', async () => {
    const c = pluginSlug('db-c');
    const row = await install(c, 'create table kept (x int);');
    expect(await run(c, 'insert into kept values (7) returning x')).toEqual({ rows: [{ x: 7 }] });
    const role = schemaNameOf(c);
    const owner = async () =>
      (
        await rows<{ owner: string }>(
          t.database.db,
          sql`select pg_get_userbyid(relowner) as owner from pg_class where oid = ${`"${role}".kept`}::regclass`,
        )
      )[0].owner;
    expect(await owner()).toBe(role);
    expect((await t.admin('DELETE', `/admin/plugins/${row.id}`)).statusCode).toBe(200);
    // Owned by the shop's user, an index function of the plugin's would run as it when
    // autovacuum analyzes the table.
    expect(await owner()).toBe(role);

    expect((await install(c, 'create table kept (x int);')).status).toBe('installed');
    expect(await run(c, 'select x from kept')).toEqual({ rows: [{ x: 7 }] });
  });
});
