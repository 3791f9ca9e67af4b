import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useToast } from '../components/toasts.tsx';
import { api } from './api.ts';

/**
 * What a "new or existing" detail page of a resource does (a customer group, a price list): read
 * the one at `/:id` (nothing when the id is `new`), delete it and go back to the list, and after a
 * save keep the answer, refresh the list and, for a new one, move to its own page.
 */
export function useDetailPage<T extends { id: string }>(opts: {
  /** The route's id: `new` for the page that creates one. */
  id: string | undefined;
  /** The admin API's collection, e.g. `/admin/price-lists`. */
  path: string;
  /** The answer's key and the query's, e.g. `price_list` (query key `price-list`). */
  envelope: string;
  /** The query key of the lists to refresh, e.g. `price-lists`. */
  listKey: string;
  /** "Price list": the toasts' words. */
  noun: string;
  /** The panel's list page, and where a new one's page is found (`${home}/${id}`). */
  home: string;
}) {
  const client = useQueryClient();
  const notify = useToast();
  const navigate = useNavigate();
  const creating = opts.id === 'new';
  const key = [opts.envelope.replace(/_/g, '-'), opts.id];
  const found = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api<Record<string, T>>(`${opts.path}/${opts.id}`, { signal }),
    enabled: !creating,
  });
  const remove = useMutation({
    mutationFn: () => api(`${opts.path}/${opts.id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: [opts.listKey] });
      notify(`${opts.noun} deleted`, 'success');
      navigate(opts.home, { replace: true });
    },
  });
  const saved = async (item: T) => {
    client.setQueryData([key[0], item.id], { [opts.envelope]: item });
    await client.invalidateQueries({ queryKey: [opts.listKey] });
    notify(creating ? `${opts.noun} created` : `${opts.noun} saved`, 'success');
    if (creating) navigate(`${opts.home}/${item.id}`, { replace: true });
  };
  return { creating, found, item: found.data?.[opts.envelope], remove, saved };
}
