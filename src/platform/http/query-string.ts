import fastQueryString from 'fast-querystring';
import qs from 'qs';

/** What qs may make of a query: Medusa's SDK nests one level deeper than `a[b]` at most. */
const QS_OPTIONS = { depth: 2, arrayLimit: 200, parameterLimit: 200 } as const;

/** A query shorter than this cannot hold more than QS_OPTIONS.parameterLimit parameters. */
const SHORT = 2 * QS_OPTIONS.parameterLimit;

/**
 * Medusa's SDK sends qs-style queries (`id[]=a`, `id[0]=a`, `created_at[gte]=…`), which qs
 * parses. Most queries have no brackets at all (`limit=20&offset=0`); for those, fast-querystring
 * (Fastify's own parser) gives what qs gives at a fraction of its cost, once the keys qs leaves
 * out are left out too: the empty key and Object.prototype's names (qs' allowPrototypes: false).
 * Brackets, even percent-encoded, and queries long enough to pass qs' parameter limit go to qs.
 */
export function parseQuery(query: string): Record<string, unknown> {
  if (query.length >= SHORT || query.includes('[') || /%5b/i.test(query)) return qs.parse(query, QS_OPTIONS);
  const parsed = fastQueryString.parse(query) as Record<string, unknown>;
  for (const key in parsed) if (key === '' || Object.hasOwn(Object.prototype, key)) delete parsed[key];
  return parsed;
}
