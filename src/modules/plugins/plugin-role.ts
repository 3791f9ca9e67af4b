import type { Database } from '../../platform/db/database.ts';
import { type RawTx, withRawTx } from './raw-db.ts';

/**
 * Each plugin's PostgreSQL role: named like its schema (`plugin_<id>`, safe as an identifier:
 * lower-case letters, digits and `_` only), NOLOGIN, owning that schema and nothing else. The
 * plugin's queries and migrations run as it (`set local role`), so PostgreSQL itself refuses
 * the shop's tables (`public.customers`) and other plugins' schemas: no grant was ever given.
 *
 * Uninstall leaves the role as it is, owning the schema and data kept for a reinstall (claimSchema
 * gives them back to the same vendor's plugin only). Nothing runs as it any more but what
 * PostgreSQL itself does to its tables, and that is why it stays: autovacuum's ANALYZE evaluates
 * an expression index as the table's owner. Handed to the shop's user (as uninstall once did, to
 * drop the role), a plugin's index function would then run with the shop's rights, a superuser's
 * on PGlite and usually on PostgreSQL.
 */
export const roleNameOf = (schema: string) => schema;

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`Unsafe SQL identifier: ${name}`);
  return `"${name}"`;
}

/** The plugin a schema is handed to: its manifest's vendor and id. */
export interface SchemaOwner {
  vendor: string;
  manifestId: string;
}

/** The schema holds another plugin's data: the install or load stops before any of its code runs. */
export class SchemaTaken extends Error {}

/**
 * Records `owner` as the schema's (`plugin_schemas`), or checks that it is: a schema kept from an
 * uninstall goes back only to the same vendor's plugin of the same id, never to another vendor's
 * plugin that took the same manifest id, nor to a long id whose cut name collides (schemaNameOf).
 * A schema made before owners were recorded goes to the first plugin that loads it; one dropped
 * by hand frees its name.
 */
async function claimSchema(tx: RawTx, schema: string, owner: SchemaOwner): Promise<void> {
  const values = [schema, owner.vendor, owner.manifestId];
  const [exists] = await tx.query('select 1 from pg_namespace where nspname = $1', [schema]);
  if (!exists) {
    // Never made, or dropped by hand: the name is free, and migrations recorded for it ran on
    // data that is gone.
    await tx.query('delete from public.plugin_migrations where schema_name = $1', [schema]);
    await tx.query(
      `insert into public.plugin_schemas (schema_name, vendor, manifest_id) values ($1, $2, $3)
       on conflict (schema_name) do update set vendor = excluded.vendor, manifest_id = excluded.manifest_id`,
      values,
    );
    return;
  }
  await tx.query(
    'insert into public.plugin_schemas (schema_name, vendor, manifest_id) values ($1, $2, $3) on conflict (schema_name) do nothing',
    values,
  );
  const [held] = await tx.query<{ vendor: string; manifest_id: string }>(
    'select vendor, manifest_id from public.plugin_schemas where schema_name = $1',
    [schema],
  );
  if (held.vendor === owner.vendor && held.manifest_id === owner.manifestId) return;
  throw new SchemaTaken(
    `Schema ${schema} holds the data of @${held.vendor}/${held.manifest_id} (kept when it was uninstalled): ` +
      `it is not handed to @${owner.vendor}/${owner.manifestId}. To install this plugin, drop that data first ` +
      `(drop schema "${schema}" cascade).`,
  );
}

/**
 * Creates the role and the schema if missing and hands the schema and everything in it to the
 * role: also what a schema made before roles existed, or kept from the same plugin's uninstall,
 * already holds (claimSchema refuses another plugin's). Idempotent; another instance doing the
 * same at once is fine (duplicate role ignored).
 */
export async function ensurePluginRole(tx: RawTx, schema: string, owner: SchemaOwner): Promise<void> {
  const role = ident(roleNameOf(schema));
  const s = ident(schema);
  await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`role:${schema}`]);
  await claimSchema(tx, schema, owner);
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

export function ensurePluginRoleNow(database: Database, schema: string, owner: SchemaOwner): Promise<void> {
  return withRawTx(database, (tx) => ensurePluginRole(tx, schema, owner));
}
