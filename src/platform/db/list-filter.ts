import { type SQL, sql } from 'drizzle-orm';

/**
 * A list filter from a query string (`?location_id[]=a&location_id[]=b`): no condition when the
 * list is absent; `false` when it was given empty (`location_id[]=` alone asks for nothing, as
 * drizzle's `inArray` answers `[]`, while `in ${list}` inside hand-written SQL would render
 * `in ()`, which is no SQL); otherwise the condition `match` makes of the list. A plain column
 * needs no helper (`inArray` already answers `[]` with `false`); this is for a list used in SQL
 * of one's own, such as a subquery.
 */
export function listFilter<T>(list: T[] | undefined, match: (list: T[]) => SQL | undefined): SQL | undefined {
  if (list === undefined) return undefined;
  return list.length ? match(list) : sql`false`;
}
