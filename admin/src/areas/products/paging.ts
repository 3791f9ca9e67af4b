import type { Query } from '../../lib/api.ts';

export const PAGE_SIZE = 50;

export interface ListView {
  q: string;
  status: string;
  offset: number;
}

/**
 * What to ask GET /admin/products for one screen of the list. Counting every match costs a
 * visit to every product (~300 ms at 100,000 on PGlite), so only the unfiltered first page asks
 * for the count (the total the header shows, kept for the other pages); every search keystroke,
 * filter and page turn asks `count=false` for one row more than it shows, and that extra row
 * says whether a next page exists.
 */
export function pageRequest(view: ListView): { query: Query; counted: boolean } {
  const counted = !view.q && !view.status && view.offset === 0;
  return {
    counted,
    query: {
      q: view.q,
      status: view.status ? [view.status] : undefined,
      limit: counted ? PAGE_SIZE : PAGE_SIZE + 1,
      offset: view.offset,
      count: counted ? undefined : false,
    },
  };
}

export interface ListPage<T> {
  rows: T[];
  /** More rows after this page (from the count, or from the probe row). */
  hasMore: boolean;
  /** The count, when this request asked for it. */
  count: number | null;
}

export function toPage<T>(
  body: { products: T[]; count: number | null },
  view: ListView,
  counted: boolean,
): ListPage<T> {
  if (counted && body.count !== null)
    return { rows: body.products, hasMore: view.offset + body.products.length < body.count, count: body.count };
  return {
    rows: body.products.slice(0, PAGE_SIZE),
    hasMore: body.products.length > PAGE_SIZE,
    count: null,
  };
}
