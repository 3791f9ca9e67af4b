import type { TSchema } from 'typebox';
import { listEnvelope, type Page, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';

/**
 * The team's list reads (a role's users, a user's roles, …) answer one page of one kind:
 * `{ [plural]: […], count, limit, offset }`, 50 rows unless the query asks otherwise.
 */
export function pageSchema<K extends string, T extends TSchema, P extends object>(
  tags: string[],
  summary: string,
  plural: K,
  item: T,
  parts: P,
) {
  return { tags, summary, ...parts, response: ok(listEnvelope(plural, item)) };
}

/** A page's answer: what `read` found on the page the query asks for, with that page. */
export async function pageAnswer<R extends object>(
  query: { limit?: number; offset?: number },
  read: (page: Page) => Promise<R>,
) {
  const page = pageOf(query, 50);
  return { ...(await read(page)), ...page };
}
