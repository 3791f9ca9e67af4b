import { describe, expect, it } from 'vitest';
import { assertPluginSql } from './sql-guard.ts';

const TRIGGER = `create function bump() returns trigger language plpgsql as $$
  declare total int;
  begin
    new.n := new.n + 1;
    select count(*) into total from seen;
    if total > 10 then raise notice 'many: %', total; end if;
    perform pg_catalog.now();
    return new;
  end $$`;

const plpgsql = (body: string) => `create function f() returns void language plpgsql as $$ begin ${body}; end $$`;

describe('plugin SQL guard', () => {
  it.each([
    'select * from order_notes where order_id = $1',
    'insert into seen (order_id, event_id) values ($1, $2) on conflict do nothing',
    "create table notes (id bigserial primary key, body text not null default '')",
    'select case when count(*) > 0 then 1 else 0 end as any from seen',
    'update seen set event_id = $1 where order_id = $2',
    TRIGGER,
    'create trigger bump before update on notes for each row execute function bump()',
    "create function label(n int) returns text language sql as 'select ''#'' || n'",
    'create function twice(n int) returns int language sql begin atomic select n * 2; end',
    'do $$ begin insert into seen values (1, 2); end $$',
    'create table begin_dates (begin_date date); create index on begin_dates (begin_date)',
    'savepoint a; rollback to a; release a',
    "select 'set role none' as text -- set role none",
    'show search_path',
    'create function three() returns int language sql return 1 + 2',
    "create type mood as enum ('pg_temp', 'happy')",
    "select current_setting('search_path')",
  ])('lets ordinary plugin SQL through: %s', async (sql) => {
    await expect(assertPluginSql(sql)).resolves.toBeUndefined();
  });

  it.each([
    ['reset role', 'changes a setting'],
    ['RESET ROLE; select * from public.customers', 'changes a setting'],
    ['set role postgres', 'changes a setting'],
    ['set local role postgres', 'changes a setting'],
    ['SET "role" = \'postgres\'', 'changes a setting'],
    ['set session authorization default', 'changes a setting'],
    ['reset all', 'changes a setting'],
    // What PostgreSQL reads as whitespace or as the same name is read so here too.
    ['set/**/role/**/none', 'changes a setting'],
    ['/* a /* nested */ comment */ set role none', 'changes a setting'],
    ['set search_path to "plugin_x", public', 'changes a setting'],
    ["select set_config('role', 'postgres', true)", 'set_config'],
    [`select U&"set\\005fconfig"('role', 'none', false)`, 'set_config'],
    ["select pg_catalog.set_config('search_path', 'x', false)", 'set_config'],
    ["select query_to_xml('select 1', true, true, '')", 'runs SQL text'],
    ['create temp table api_keys (id text)', 'temporary table'],
    ['create table pg_temp.api_keys (id text)', 'temporary table'],
    ['select * into temporary t from seen', 'temporary table'],
    ['commit; select * from public.customers', 'end the host'],
    ['select 1; end', 'end the host'],
    ['rollback', 'end the host'],
    ['prepare transaction $$x$$', 'end the host'],
    ['grant select on seen to public', 'grants'],
    ['create role evil superuser', 'is not a plugin'],
    ['create extension dblink', 'is not a plugin'],
    ["copy seen to '/tmp/x'", 'reaches outside'],
    ["select dblink_exec('host=x', 'select 1')", 'reaches outside'],
    ['deallocate all', 'prepared statements'],
    ['discard all', 'resets the shop'],
    ['unlisten *', 'listeners'],
    ["notify store_catalog, 'x'", 'channels'],
    ["select pg_notify('store_catalog', 'x')", 'channels'],
    ['select pg_advisory_unlock_all()', 'session locks'],
    ['explain analyze execute shop_statement(1)', 'prepared statement'],
    ['create table t as execute shop_statement(1)', 'prepared statement'],
    ['select pg_sleep(60)', 'holds the shop'],
    // Function bodies and DO blocks are checked statement by statement.
    [plpgsql('set role none'), 'changes a setting'],
    [plpgsql("execute 'sel' || 'ect 1'"), 'dynamic SQL'],
    [plpgsql("perform set_config('role', 'none', false)"), 'set_config'],
    [plpgsql('commit'), 'end the host'],
    [
      'create function f() returns void language plpgsql as $$ declare x int; begin x := set_config($a$role$a$, $a$none$a$, false)::int; end $$',
      'set_config',
    ],
    [
      'create function f() returns void language plpgsql as $$ declare a int[]; begin a[set_config($a$role$a$, $a$none$a$, false)::int] := 1; end $$',
      'set_config',
    ],
    ["do $$ begin execute 'select 1'; end $$", 'dynamic SQL'],
    ['do $$ begin set/**/role/**/none; end $$', 'changes a setting'],
    ["create function f() returns void language sql as 'set role none'", 'changes a setting'],
    [
      'create function f() returns int language sql begin atomic select pg_notify($$a$$, $$b$$); select 1; end',
      'channels',
    ],
    ['create function f() returns int language sql set search_path = public as $$select 1$$', 'sets a setting'],
    ['alter function bump() set role = postgres', 'sets a setting'],
    ["create function f() returns int language c as 'libc', 'abs'", 'sql or plpgsql'],
    ['selec 1', 'does not parse'],
    // A SQL function's `return expr` body is checked like `begin atomic … end`.
    ["create function up() returns text language sql return set_config('role', 'postgres', true)", 'set_config'],
    [
      "create function up() returns text language sql return (select set_config('role', 'postgres', true))",
      'set_config',
    ],
    // pg_settings' update rule calls set_config.
    ["update pg_settings set setting = 'postgres' where name = 'role'", 'pg_settings'],
    ['create view mine as select * from pg_catalog.pg_settings', 'pg_settings'],
    // Types and functions in the session's temporary schema outlive the transaction; its types
    // come before pg_catalog's for the shop's own casts.
    ["create domain pg_temp.text as pg_catalog.text check (value <> '')", 'temporary schema'],
    ["create type pg_temp.mood as enum ('a')", 'temporary schema'],
    ['create type PG_TEMP.pair as (a int, b int)', 'temporary'],
    ['create function pg_temp.f() returns int language sql return 1', 'temporary schema'],
    ["select 'x'::pg_temp.mood", 'temporary schema'],
  ])('refuses %s', async (sql, why) => {
    await expect(assertPluginSql(sql)).rejects.toThrow(why);
  });

  describe("objects it creates go in the plugin's own schema", () => {
    it.each([
      'create table mine (x int)',
      'create table plugin_a.mine (x int)',
      'create function plugin_a.f() returns int language sql return 1',
      'create view plugin_a.v as select 1 as one',
      'select * from public.customers', // a read: PostgreSQL's grants answer it
    ])('lets through %s', async (sql) => {
      await expect(assertPluginSql(sql, 'plugin_a')).resolves.toBeUndefined();
    });
    it.each([
      'create function public.lower(x varchar) returns text language sql return x',
      'create table public.customers_copy (x int)',
      'create table plugin_b.theirs (x int)',
      "create type public.status as enum ('a')",
      'create domain public.email as text',
      'create view public.v as select 1 as one',
      'create sequence public.s',
      'create table public.t as select 1 as one',
      'create type public.pair as (a int, b int)',
    ])('refuses %s', async (sql) => {
      await expect(assertPluginSql(sql, 'plugin_a')).rejects.toThrow('outside the plugin’s schema');
    });
  });
});
