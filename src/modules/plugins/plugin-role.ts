import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.ts';
import { type RawTx, withRawTx } from './raw-db.ts';

/**
 * Each plugin's PostgreSQL role: named like its schema (`plugin_<id>`, safe as an identifier:
 * lower-case letters, digits and `_` only), NOLOGIN, owning that schema and nothing else. The
 * plugin's queries and migrations run as it (`set local role`), so PostgreSQL itself refuses
 * the shop's tables (`public.customers`) and other plugins' schemas: no grant was ever given.
 */
export const roleNameOf = (schema: string) => schema;

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`Unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}

/**
 * Creates the role and the schema if missing and hands the schema and everything in it to the
 * role: also what a schema made before roles existed, or kept from an uninstall, already holds.
 * Idempotent; another instance doing the same at once is fine (duplicate role ignored).
 */
export async function ensurePluginRole(tx: RawTx, schema: string): Promise<void> {
  const role = ident(roleNameOf(schema));
  const s = ident(schema);
  await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`role:${schema}`]);
  await tx.exec(`do $$ begin
    if not exists (select 1 from pg_roles where rolname = '${roleNameOf(schema)}') then
      create role ${role} nologin;
    end if;
  exception when duplicate_object or unique_violation then null;
  end $$`);
  // A non-superuser shop (CREATEROLE) must be a member to `set role` to it; harmless otherwise.
  await tx.exec(`grant ${role} to current_user`);
  await tx.exec(`create schema if not exists ${s} authorization ${role}`);
  await tx.exec(`alter schema ${s} owner to ${role}`);
  await tx.exec(`do $$ declare r record; begin
    for r in select c.relname, c.relkind from pg_class c
      where c.relnamespace = '${schema}'::regnamespace and c.relkind in ('r','p','v','m','S')
        and c.relowner <> '${roleNameOf(schema)}'::regrole
        and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a','i'))
    loop
      execute format('alter %s %I.%I owner to %I',
        case r.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'S' then 'sequence' else 'table' end,
        '${schema}', r.relname, '${roleNameOf(schema)}');
    end loop;
    for r in select p.oid::regprocedure as fn from pg_proc p
      where p.pronamespace = '${schema}'::regnamespace and p.proowner <> '${roleNameOf(schema)}'::regrole
    loop
      execute format('alter routine %s owner to %I', r.fn, '${roleNameOf(schema)}');
    end loop;
    for r in select t.typname, t.typtype from pg_type t
      where t.typnamespace = '${schema}'::regnamespace and t.typowner <> '${roleNameOf(schema)}'::regrole
        and t.typtype in ('e','d') 
    loop
      execute format('alter %s %I.%I owner to %I', case r.typtype when 'd' then 'domain' else 'type' end,
        '${schema}', r.typname, '${roleNameOf(schema)}');
    end loop;
  end $$`);
}

export function ensurePluginRoleNow(database: Database, schema: string): Promise<void> {
  return withRawTx(database, (tx) => ensurePluginRole(tx, schema));
}

/**
 * Uninstall: the schema and its tables stay (the shop's user takes them over, a reinstall hands
 * them back) and the role goes. A role that still owns objects in another database of the same
 * cluster cannot be dropped: it is left, logged, with no rights here.
 */
export async function dropPluginRole(database: Database, log: FastifyBaseLogger, schema: string): Promise<void> {
  const role = ident(roleNameOf(schema));
  try {
    await withRawTx(database, async (tx) => {
      const [exists] = await tx.query('select 1 from pg_roles where rolname = $1', [roleNameOf(schema)]);
      if (!exists) return;
      await tx.exec(`reassign owned by ${role} to current_user`);
      await tx.exec(`drop owned by ${role}`);
      await tx.exec(`drop role ${role}`);
    });
  } catch (err) {
    log.warn({ schema, err: (err as Error).message }, 'plugin role not dropped');
  }
}
