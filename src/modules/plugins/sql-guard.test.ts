import { describe, expect, it } from 'vitest';
import { assertPluginSql } from './sql-guard.ts';

describe('plugin SQL guard', () => {
  it.each([
    'select * from order_notes where order_id = $1',
    'insert into seen (order_id, event_id) values ($1, $2) on conflict do nothing',
    "create table notes (id bigserial primary key, body text not null default '')",
    'select case when count(*) > 0 then 1 else 0 end as any from seen',
    'create function bump() returns trigger language plpgsql as $$ begin new.n := new.n + 1; return new; end $$',
    'begin_date date',
    'savepoint a; rollback to a',
  ])('lets ordinary plugin SQL through: %s', (sql) => {
    expect(() => assertPluginSql(sql)).not.toThrow();
  });

  it.each([
    ['reset role', 'changes the role'],
    ['RESET ROLE; select * from public.customers', 'changes the role'],
    ['set role postgres', 'changes the role'],
    ['set local role postgres', 'changes the role'],
    ['SET "role" = \'postgres\'', 'changes the role'],
    ['set session authorization default', 'changes the role'],
    ['reset all', 'changes the role'],
    ["select set_config('role', 'postgres', true)", 'set_config'],
    ["do $$ begin execute 'sel' || 'ect 1'; end $$", 'execute'],
    ["select query_to_xml('select 1', true, true, '')", 'runs SQL text'],
    ['commit; select * from public.customers', "end the host's transaction"],
    ['select 1; end', "end the host's transaction"],
    ['rollback', "end the host's transaction"],
    ['grant select on seen to public', 'grants'],
    ['create role evil superuser', 'is not a plugin'],
    ["copy seen to '/tmp/x'", 'reaches outside'],
  ])('refuses %s', (sql, why) => {
    expect(() => assertPluginSql(sql)).toThrow(why);
  });
});
