import { keepPreviousData, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { api, type Query } from './api.ts';
import { useDebounced } from '../components/ui.tsx';
import { useUrlFilters } from './url-filters.ts';

/**
 * A GET of the admin API under a query key: `path` with `query`, cancelled when the read is no
 * longer wanted; `options` adds the rest (enabled, select, a refetch interval…).
 */
export function useApi<D, R = D>(
  queryKey: QueryKey,
  path: string,
  query?: Query,
  options: Omit<UseQueryOptions<D, Error, R>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<D, Error, R>({ queryKey, queryFn: ({ signal }) => api<D>(path, { query, signal }), ...options });
}

/**
 * A list page's read: GET `path` with `query`, keeping the previous page on screen while the next
 * one loads (no flash of "Loading" between pages or keystrokes). `options` adds what a list needs
 * beyond that (a refetch interval while something is pending, no retry).
 */
export function useListQuery<D>(
  queryKey: QueryKey,
  path: string,
  query: Query,
  options: Omit<UseQueryOptions<D>, 'queryKey' | 'queryFn'> = {},
) {
  return useApi<D>(queryKey, path, query, { placeholderData: keepPreviousData, ...options });
}

/**
 * A paged list's place in the URL (lib/url-filters.ts): its filters, the search `q` once typing
 * paused, the `offset` of the page shown and `page(offset)` to move to another.
 */
export function useUrlPage() {
  const [params, set, setParams] = useUrlFilters();
  const q = useDebounced(params.get('q') ?? '');
  const offset = Number(params.get('offset') ?? 0);
  const page = (next: number) => set('offset', String(next));
  return { params, set, setParams, q, offset, page };
}
