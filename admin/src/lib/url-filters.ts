import { useEffect, useState } from 'react';
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

/**
 * A text filter kept in the URL, as its input shows it: `[text, change]`. The input keeps its own
 * copy of the text. The router hands a new address to React only in a later render (a
 * transition), and an input whose value came from the render's address was put back to the old
 * text between two keystrokes: on a slow machine a fast typist lost letters ("lamp 9999 and more
 * text" came out as "lat" at 30x CPU throttling). The address still changes on every keystroke;
 * the text follows the address only when it was changed elsewhere (back, a link, "Clear
 * filters"): when the render's address is the address as it is now.
 */
export function useUrlText(key: string): [string, (value: string) => void] {
  const [params, set] = useUrlFilters();
  const fromUrl = params.get(key) ?? '';
  const [text, setText] = useState(fromUrl);
  useEffect(() => {
    if (fromUrl === (new URLSearchParams(window.location.search).get(key) ?? '')) setText(fromUrl);
  }, [fromUrl, key]);
  const change = (value: string) => {
    setText(value);
    set(key, value);
  };
  return [text, change];
}
