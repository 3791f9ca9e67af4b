import { Column, type GetColumnData, getTableColumns, getTableName, is, sql, type SQL } from 'drizzle-orm';
import { alias, type BuildAliasTable, PgDialect, type PgTable } from 'drizzle-orm/pg-core';

/** Each table made by tableAs → its `"table" "name"`. */
const sources = new WeakMap<object, SQL>();

/**
 * SQL written by hand (one statement of correlated subqueries building JSON, as the store's cart
 * read is) on the drizzle tables the modules declare, so the compiler checks every column it
 * names: `tableAs(carts, 'c')` is the table `carts` under the name `c`; `${c.region_id}` renders
 * `"c"."region_id"` and fails `npm run typecheck` once the column is renamed in its tables.ts;
 * `${from(c)}` renders `"carts" "c"`. The statement's text (and so its plan and prepared name)
 * stays what one would write by hand. Drizzle rather than a second query builder: these tables
 * are already declared for drizzle (migrations are generated from them), so the types cannot
 * drift from the schema, and the hot statements keep their hand-written, prepared shape.
 */
export function tableAs<T extends PgTable, A extends string>(table: T, name: A): BuildAliasTable<T, A> {
  const aliased = alias(table, name);
  sources.set(aliased, sql`${table} ${sql.identifier(name)}`);
  return aliased;
}

/** The `"table" "name"` of a table made by `tableAs`, for a FROM or JOIN. */
export function from(aliased: PgTable): SQL {
  const source = sources.get(aliased);
  if (!source) throw new Error('from() takes a table made by tableAs()');
  return source;
}

/**
 * A value as a statement read by hand gives it: timestamps as text (prepared.ts keeps them so on
 * both drivers, and JSON has no dates), everything else as declared.
 */
export type Raw<T> = T extends Date ? string : T;
/** A row as `to_json(row)` or a raw read gives it. */
export type RawRow<T> = { [K in keyof T]: Raw<T[K]> };

const KEY = /^[a-z][a-z0-9_]*$/;

type Field = Column | SQL<unknown>;
type ValueOf<F> = F extends Column ? Raw<GetColumnData<F>> : F extends SQL<infer T> ? T : never;
/** The row a `selectList` of these fields reads. */
export type RowOf<F extends Record<string, Field>> = { [K in keyof F]: ValueOf<F[K]> };

/** `"c"."id", (…) as "lines", …`: each field under its key (a column of the same name as is). */
export function selectList(fields: Record<string, Field>): SQL {
  return sql.join(
    Object.entries(fields).map(([key, f]) =>
      is(f, Column) && f.name === key ? sql`${f}` : sql`${f} as ${sql.identifier(key)}`,
    ),
    sql`, `,
  );
}

/** `"a", "b"`: columns by their bare names, for an INSERT's column list (which takes no table name). */
export const columnNames = (...columns: Column[]): SQL =>
  sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  );

/** Every column of a table (made by `tableAs`), by name: what `select c.*` would read, spelled out for prepared statements. */
export const allColumns = <T extends PgTable>(table: T): T['_']['columns'] => getTableColumns(table);

/** `json_build_object('id', "v"."id", …)`, typed as the object it builds. */
export function jsonObject<F extends Record<string, Field>>(fields: F): SQL<RowOf<F>> {
  const pairs = Object.entries(fields).map(([key, f]) => {
    if (!KEY.test(key)) throw new Error(`JSON key "${key}" is not a lower-case identifier`);
    // A literal, not a parameter: the statement's text names its keys, as one written by hand does.
    return sql`${sql.raw(`'${key}'`)}, ${f}`;
  });
  return sql<RowOf<F>>`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/**
 * A table's name and its columns' names as text, for SQL assembled as strings (a fixed text built
 * once at load, as the product JSON is): `${n.table} pc … pc.${n.title}`. Taken from the drizzle
 * declaration, so renaming a column there fails the type check where the text names it.
 */
export function namesOf<T extends PgTable>(table: T): { table: string } & { [K in keyof T['_']['columns']]: string } {
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => [key, column.name]);
  return { table: getTableName(table), ...(Object.fromEntries(columns) as { [K in keyof T['_']['columns']]: string }) };
}

const dialect = new PgDialect();

/**
 * A constant fragment of a hot statement (no values in it), rendered to its text once. Drizzle
 * walks every chunk of a statement each time the statement is built (each table, column and
 * nested fragment, with an `is()` check apiece); for the cart reads of checkout that walk was
 * about 8 % of an order's CPU. The fragment is written and type-checked as any other; only its
 * rendering is kept. Throws when the fragment holds a value, which must stay a parameter.
 */
export function rendered<T>(fragment: SQL<T>): SQL<T> {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length) throw new Error(`rendered(): a fragment with values cannot be kept as text: ${text}`);
  return sql<T>`${sql.raw(text)}`;
}
