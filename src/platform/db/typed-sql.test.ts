import { type SQL, sql } from 'drizzle-orm';
import { boolean, PgDialect, pgTable, text } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { allColumns, columnNames, from, jsonObject, rendered, type RowOf, selectList, tableAs } from './typed-sql.ts';

const things = pgTable('things', { id: text('id').primaryKey(), live: boolean('live').notNull(), note: text('note') });
const dialect = new PgDialect();
const render = (q: SQL) => dialect.sqlToQuery(q);

describe('typed-sql: hand-written SQL on declared tables', () => {
  it('renders a table under its short name, its columns qualified by that name, and the select list by key', () => {
    const t = tableAs(things, 't');
    const fields = { ...allColumns(t), shown: sql<boolean>`${t.live} and ${t.note} is not null` };
    const q = render(sql`select ${selectList(fields)} from ${from(t)} where ${t.id} = ${'x'}`);
    expect(q.sql).toBe(
      'select "t"."id", "t"."live", "t"."note", "t"."live" and "t"."note" is not null as "shown" from "things" "t" where "t"."id" = $1',
    );
    expect(q.params).toEqual(['x']);
    // The row type follows the fields: a column's declared type, an expression's stated one.
    const row: RowOf<typeof fields> = { id: 'a', live: true, note: null, shown: false };
    expect(Object.keys(row)).toEqual(['id', 'live', 'note', 'shown']);
  });

  it('builds JSON objects with literal keys, and refuses a table not made by tableAs', () => {
    const t = tableAs(things, 'x');
    expect(render(jsonObject({ id: t.id, live: t.live })).sql).toBe(
      `json_build_object('id', "x"."id", 'live', "x"."live")`,
    );
    expect(() => jsonObject({ "id') || ('": t.id })).toThrow(/not a lower-case identifier/);
    expect(() => from(things)).toThrow(/tableAs/);
  });

  it('names an INSERT’s columns bare', () => {
    expect(render(sql`insert into ${things} (${columnNames(things.id, things.live)})`).sql).toBe(
      'insert into "things" ("id", "live")',
    );
  });

  it('keeps a constant fragment as its text, the same statement as built each time, and refuses one with a value', () => {
    const t = tableAs(things, 't');
    const fields = { ...allColumns(t), shown: sql<boolean>`${t.live} and ${t.note} is not null` };
    const statement = (list: SQL) => sql`select ${list} from ${from(t)} where ${t.id} = ${'x'} and ${t.note} = ${'y'}`;
    expect(render(statement(rendered(selectList(fields))))).toEqual(render(statement(selectList(fields))));
    expect(() => rendered(sql`${t.id} = ${'x'}`)).toThrow(/values/);
  });
});
