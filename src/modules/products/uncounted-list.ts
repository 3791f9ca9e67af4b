import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { preparedRows } from './prepared.ts';
import type { AmountUnits } from '../../platform/money/schema.ts';
import { productJsonIn } from './product-json.ts';
import { adminConditions } from './queries.ts';
import type { AdminListFilters } from './schema.ts';

/**
 * The admin list without its count (`count=false`, `count: null`): the statement stops after
 * offset + limit rows instead of visiting every match, which at 100,000 products is the
 * difference between ~6 ms and ~300 ms a request on PGlite (the panel's search-as-you-type and
 * paging ask for limit + 1 rows to learn whether a next page exists). A search is not
 * materialized here: walking in id order stops at the first page of matches for common terms,
 * and with statistics the planner takes the trigram index for rare ones.
 */
export async function listAdminPageJson(
  db: Executor,
  filters: AdminListFilters,
  page: Page,
  units?: AmountUnits,
): Promise<string> {
  const { limit, offset } = page;
  const statement = sql`with page as (
      select p.id from products p where ${adminConditions(filters)} order by p.id limit ${limit} offset ${offset})
    select json_build_object(
      'products', coalesce((select json_agg(${productJsonIn(units).admin} order by p.id) from page join products p on p.id = page.id), '[]'::json),
      'count', null, 'limit', ${limit}::int, 'offset', ${offset}::int
    )::text as body`;
  // A LIKE pattern's best plan depends on its value, so a search is not prepared (as in queries.ts).
  const [row] = filters.q
    ? await rows<{ body: string }>(db, statement)
    : await preparedRows<{ body: string }>(db, statement);
  return row.body;
}
