import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { listFilter } from './list-filter.ts';

const render = (q: SQL | undefined) => {
  const { sql, params } = new PgDialect().sqlToQuery(q!);
  return { sql, params };
};
const inSubquery = (ids: string[]) => sql`id in (select item_id from levels where location_id in ${ids})`;

describe('listFilter: an optional list in hand-written SQL', () => {
  it('adds no condition without a list, matches nothing for an empty one, and builds the condition otherwise', () => {
    expect(listFilter(undefined, inSubquery)).toBeUndefined();
    expect(render(listFilter([], inSubquery))).toEqual({ sql: 'false', params: [] });
    expect(render(listFilter(['a', 'b'], inSubquery))).toEqual({
      sql: 'id in (select item_id from levels where location_id in ($1, $2))',
      params: ['a', 'b'],
    });
  });
});
