import { useSearchParams } from 'react-router';

type SetParams = ReturnType<typeof useSearchParams>[1];

/**
 * A list page's filters and page offset, kept in the URL so the page can be shared. `set(key,
 * value)` changes one (an empty value removes it; any filter change goes back to the first page).
 * It starts from the address as it is now, not from the render's copy: two changes before React
 * renders again (clearing the search, then picking a status) would otherwise both start from the
 * same old params, and the second would bring back what the first removed.
 */
export function useUrlFilters(): [URLSearchParams, (key: string, value: string) => void, SetParams] {
  const [params, setParams] = useSearchParams();
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(window.location.search);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'offset') next.delete('offset');
    setParams(next, { replace: true });
  };
  return [params, set, setParams];
}
