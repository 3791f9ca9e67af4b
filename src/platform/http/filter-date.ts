import { errors } from './errors.ts';

// PostgreSQL's timestamptz reaches back to 4713 BC, but JavaScript writes years before 1 and after
// 9999 in a form (`-000001-…`, `+010000-…`) PostgreSQL refuses: a 500 from a query string. No
// filter needs them.
const FIRST = Date.parse('0001-01-01T00:00:00Z');
const LAST = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * A date filter from a query string (`created_at[gte]=2026-01-01`): a real instant between the
 * years 1 and 9999, or a 400 naming the field. `new Date` alone lets through `…T23:59:60Z` (an
 * invalid date, which the SQL builder throws on) and year 0.
 */
export function filterDate(value: string | undefined, field: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const at = new Date(value);
  const ms = at.getTime();
  if (Number.isNaN(ms) || ms < FIRST || ms > LAST) throw errors.invalid('invalid_date_filter', { field });
  return at;
}
