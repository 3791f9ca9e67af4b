import { keepPreviousData, useInfiniteQuery, useQueries } from '@tanstack/react-query';
import { api, type Query } from '../../lib/api.ts';
import { idsBySource, type ApiRule, type Labels, type ListSource } from './words.ts';

/**
 * The shop's lists a promotion rule points at (customer groups, products, categories…), read the
 * way a shop with thousands of each needs: a rule row searches its list on the server (`q`) a page
 * at a time, and the words read the names of only the ids the rules hold (`id`). Nothing loads a
 * whole list.
 */

export interface Option {
  id: string;
  label: string;
}

interface List {
  path: string;
  key: string;
  /** The field an operator knows a thing by. */
  name: string;
  fields?: string;
  /** The list takes `q` and `id` filters; otherwise its first 200 are read and searched here. */
  server: boolean;
}

export const LISTS: Record<ListSource, List> = {
  groups: { path: '/admin/customer-groups', key: 'customer_groups', name: 'name', server: true },
  regions: { path: '/admin/regions', key: 'regions', name: 'name', server: true },
  collections: { path: '/admin/collections', key: 'collections', name: 'title', server: true },
  categories: { path: '/admin/product-categories', key: 'product_categories', name: 'name', server: true },
  types: { path: '/admin/product-types', key: 'product_types', name: 'value', server: true },
  tags: { path: '/admin/product-tags', key: 'product_tags', name: 'value', server: true },
  products: { path: '/admin/products', key: 'products', name: 'title', fields: 'id,title', server: true },
  // A shop has a handful of shipping options, and their list takes neither `q` nor `id` (yet).
  shipping_options: { path: '/admin/shipping-options', key: 'shipping_options', name: 'name', server: false },
};

/** Rows per page of a rule row's list. */
export const RULE_PAGE = 50;
/** Ids per request when reading names (the lists' `id` filters take up to 100). */
const IDS_PER_READ = 100;

interface Read {
  options: Option[];
  count: number;
}

async function readList(source: ListSource, query: Query, signal: AbortSignal): Promise<Read> {
  const list = LISTS[source];
  const data = await api<Record<string, unknown>>(list.path, {
    query: list.fields ? { ...query, fields: list.fields } : query,
    signal,
  });
  const rows = (data[list.key] ?? []) as Record<string, string>[];
  return {
    options: rows.map((r) => ({ id: r.id, label: r[list.name] ?? r.id })),
    count: Number(data.count ?? rows.length),
  };
}

/** A list that cannot search on the server: its first 200, searched by name here. */
async function readLocally(source: ListSource, q: string, signal: AbortSignal): Promise<Read> {
  const { options } = await readList(source, { limit: 200 }, signal);
  const needle = q.toLowerCase();
  const found = needle ? options.filter((o) => o.label.toLowerCase().includes(needle)) : options;
  return { options: found, count: found.length };
}

/** The names of the things these rules point at, by id: only those ids are read. */
export function useRuleLabels(rules: ApiRule[]): Labels {
  const wanted = idsBySource(rules);
  const sources = Object.keys(wanted) as ListSource[];
  const results = useQueries({
    queries: sources.map((s) => ({
      queryKey: ['promotion-rule-labels', s, wanted[s]],
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Read> => {
        if (!LISTS[s].server) return readLocally(s, '', signal);
        const ids = wanted[s] ?? [];
        const reads = [];
        for (let i = 0; i < ids.length; i += IDS_PER_READ) {
          const chunk = ids.slice(i, i + IDS_PER_READ);
          reads.push(readList(s, { id: chunk, limit: chunk.length }, signal));
        }
        const done = await Promise.all(reads);
        return { options: done.flatMap((d) => d.options), count: ids.length };
      },
      staleTime: 60_000,
      // While a newly picked id's name is read, the names already known stay.
      placeholderData: keepPreviousData,
    })),
  });
  const labels: Labels = {};
  for (const r of results) for (const o of r.data?.options ?? []) labels[o.id] = o.label;
  return labels;
}

/** One rule row's list: a page of what matches `q` (everything when empty), then the next pages on demand. */
export function useRuleSearch(source: ListSource | null, q: string) {
  return useInfiniteQuery({
    queryKey: ['promotion-rule-search', source, q],
    enabled: source !== null,
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }): Promise<Read> => {
      const s = source as ListSource;
      return LISTS[s].server
        ? readList(s, { q: q || undefined, limit: RULE_PAGE, offset: pageParam }, signal)
        : readLocally(s, q, signal);
    },
    getNextPageParam: (last: Read, pages: Read[]) => {
      const seen = pages.reduce((n, p) => n + p.options.length, 0);
      return last.options.length > 0 && seen < last.count ? seen : undefined;
    },
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
