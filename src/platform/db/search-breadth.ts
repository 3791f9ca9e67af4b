import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from './database.ts';

/** What `searchBreadth` learnt: the exact count (a small table), or an estimate (many matches), or neither. */
export interface Breadth {
  exact?: number;
  estimate?: number;
  /** With `estimate`: the share of the sample that matched. */
  share?: number;
}

/** Rows of the table read, in key order, to learn how common a search's matches are. */
export const SEARCH_SAMPLE = 2_000;
/** Up to this many matches (as the sample tells), a search's count is exact. */
export const SEARCH_COUNTED_UP_TO = 5_000;

/**
 * How common the rows matching `filters` (a text search among them) are in `table`: one
 * statement reading the first SEARCH_SAMPLE rows by id (the primary key's order) and the table's
 * size as the statistics have it (kept current by the product, platform/db/statistics.ts).
 *
 * - `exact`: the table holds no more than the sample, so its matches were all counted.
 * - `estimate`: more matches than SEARCH_COUNTED_UP_TO are likely (their share of the sample
 *   times the table's size). Counting them exactly would visit every one (a text part common to
 *   every order: ~260 ms at a million orders): the list answers this estimate instead, and says
 *   so (`count_estimated`); its page is read by walking the sort order, which meets the first
 *   matches at once (`broad`).
 * - neither: few matches; counted exactly through their indexes.
 * `filters` names the table's columns qualified by its name: the sample is aliased to it.
 */
export async function searchBreadth(db: Executor, table: string, filters: SQL | undefined): Promise<Breadth> {
  const name = sql.identifier(table);
  const [s] = await rows<{ sampled: number; matched: number; size: number | null }>(
    db,
    sql`select count(*)::int as sampled, count(*) filter (where ${filters ?? sql`true`})::int as matched,
      (select reltuples::float8 from pg_class where oid = ${table}::regclass) as size
    from (select * from ${name} order by id limit ${SEARCH_SAMPLE}) as ${name}`,
  );
  const sampled = Number(s.sampled);
  const matched = Number(s.matched);
  if (sampled < SEARCH_SAMPLE) return { exact: matched };
  const size = Number(s.size ?? -1);
  if (!(size > 0)) return {}; // never analyzed: nothing to scale by
  const estimate = Math.round((matched / sampled) * Math.max(size, sampled));
  return estimate > SEARCH_COUNTED_UP_TO ? { estimate, share: matched / sampled } : {};
}

/**
 * How many rows of the walked order a broad search's page should need: its last row's place
 * among the matches over their share, four times over (matches come in runs), plus the sample.
 * A walk bounded so does not leave the planner the choice: given a search it cannot estimate,
 * PostgreSQL may read every row and sort them (220 ms at 200,000 customers) instead of walking
 * the order for the first few hundred. Undefined for a search that is not broad.
 */
export function walkLength(breadth: Breadth, page: { limit: number; offset: number }): number | undefined {
  if (!breadth.share) return undefined;
  return Math.ceil(((page.offset + page.limit) / breadth.share) * 4) + SEARCH_SAMPLE;
}

/**
 * A list's count after its page was read: `breadth.exact` when the sample counted every match; a
 * page short of its limit ends the matches, so they are counted exactly by it; otherwise the
 * estimate (never less than the rows seen so far plus one: there is a next page), or `exact()`.
 */
export async function countOf(
  read: number,
  page: { limit: number; offset: number },
  breadth: Breadth,
  exact: () => Promise<number>,
): Promise<{ count: number; estimated: boolean }> {
  if (breadth.exact !== undefined) return { count: breadth.exact, estimated: false };
  if (breadth.estimate === undefined || (read === 0 && page.offset > 0))
    return { count: await exact(), estimated: false };
  if (read < page.limit) return { count: page.offset + read, estimated: false };
  return { count: Math.max(breadth.estimate, page.offset + read + 1), estimated: true };
}

/**
 * A list's page and its count (`countOf`). Unless the sample counted or estimated the matches,
 * the count is exact whatever the page holds, so it is read beside the page, on a connection of
 * its own: a `q` reads its index for each (about 25 ms apiece at a million orders).
 */
export async function pageAndCount<R>(
  page: { limit: number; offset: number },
  breadth: Breadth,
  read: () => Promise<R[]>,
  exact: () => Promise<number>,
): Promise<{ rows: R[]; count: number; estimated: boolean }> {
  const sampled = breadth.estimate !== undefined || breadth.exact !== undefined;
  const [rows, counted] = await Promise.all([read(), sampled ? undefined : exact()]);
  const { count, estimated } = await countOf(rows.length, page, breadth, async () => counted ?? exact());
  return { rows, count, estimated };
}
