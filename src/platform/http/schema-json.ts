import type { TObject } from 'typebox';

/** The keys of an object response schema. */
type Keys<T extends TObject> = Extract<keyof T['properties'], string>;

/** A TypeBox object keeps its properties in the order they were declared: the order its JSON is written in. */
const keysOf = (schema: TObject): string[] => Object.keys(schema.properties);

/**
 * Writers of a response shape for answers the serializer never sees (JSON PostgreSQL renders,
 * text the store assembles), taking the keys and their order from the route's TypeBox schema,
 * so that the shape is written once. `values` gives each key's value; a key the schema has and
 * `values` lacks, or the other way round, fails the typecheck.
 */

/** PostgreSQL's `json_build_object('key', <SQL expression>, …)`. */
export function sqlJsonObject<T extends TObject>(schema: T, values: Record<Keys<T>, string>): string {
  const expr = values as Record<string, string>;
  return `json_build_object(${keysOf(schema)
    .map((k) => `'${k}', ${expr[k]}`)
    .join(', ')})`;
}

/**
 * Compact JSON text (`{"key":value,…}`, as JSON.stringify writes it), each value given as JSON
 * text already: a number's digits, `true`, `null`, another writer's object. The keys' text is
 * made once; a call only joins.
 */
export function jsonTextWriter<T extends TObject>(schema: T): (values: Record<Keys<T>, string>) => string {
  const keys = keysOf(schema);
  const heads = keys.map((k, i) => `${i === 0 ? '{' : ','}${JSON.stringify(k)}:`);
  return (values) => {
    const text = values as Record<string, string>;
    let out = '';
    for (let i = 0; i < keys.length; i++) out += heads[i] + text[keys[i]];
    return `${out}}`;
  };
}
