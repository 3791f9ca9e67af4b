import { nameOf } from './statement-names.ts';

/**
 * On PostgreSQL, every statement the app runs with parameters goes as a named prepared statement:
 * node-postgres then parses it once per connection, and PostgreSQL plans it once it has seen it
 * five times and found a generic plan no dearer than its custom ones (plan_cache_mode auto), as
 * JDBC's driver does by default. Unnamed, each run was parsed, analyzed and planned again: in a
 * storefront journey on PostgreSQL (log_min_duration_statement = 0) parse and plan were half of
 * the database's time, the hot statements prepared by hand (prepared.ts) aside.
 *
 * Left unnamed: statements without parameters (they go by the simple protocol, which may carry
 * several statements), anything but select, with, insert, update and delete, and statements whose
 * result names no columns (`*`, `t.*`): a migration that adds a column would change the result
 * of a statement prepared before it, which PostgreSQL refuses ("cached plan must not change result
 * type") until the connection goes. The names come from the bounded table prepared.ts names its statements from, so a text
 * that varies (a list of values written out) cannot grow it past its limit.
 */
const PREPARABLE = /^\s*(?:select|with|insert|update|delete)\b/i;
const STAR = /(?:^|[\s,])(?:"?\w+"?\.)?\*(?=\s|,|$)/;

export function preparedName(text: string): string | undefined {
  if (!PREPARABLE.test(text) || text.includes(';') || STAR.test(text)) return undefined;
  return nameOf(text);
}

interface QueryConfigLike {
  text?: unknown;
  name?: unknown;
  values?: unknown;
}

/** Wraps one pg client's `query` so its parameterised statements go named (see above). */
export function autoPrepare(client: { query: (...args: never[]) => unknown }): void {
  const query = client.query;
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; only the config form is touched
  client.query = function (this: unknown, ...args: any[]) {
    const [config, values] = args;
    if (config !== null && typeof config === 'object' && typeof (config as QueryConfigLike).text === 'string') {
      const c = config as QueryConfigLike;
      const params = Array.isArray(values) ? values : c.values;
      if (c.name === undefined && Array.isArray(params) && params.length > 0) {
        const name = preparedName(c.text as string);
        if (name) args[0] = { ...c, name };
      }
    }
    return Reflect.apply(query, this, args);
  } as typeof client.query;
}
