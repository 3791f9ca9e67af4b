import { useState } from 'react';

/**
 * Checkboxes each saved by its own click (a key's sales channels, a location's). A box shows the
 * choice from the change handler itself until its save settled and the list was read again: the
 * mutation's state reaches React a render later and the saved list only after the refetch, so a
 * controlled box sprang back meanwhile (and a second click on it undid the first). While its save
 * runs a box is `pending` (the panel disables it: one save per box at a time). `save` resolves once
 * the lists it changed were read again (a `mutateAsync` whose callbacks await the refresh); its
 * failure is the write's to show, and the box then shows what is saved.
 */
export function useSavedTicks() {
  const [ticks, setTicks] = useState<Record<string, boolean>>({});
  const settle = (key: string) =>
    setTicks((t) => {
      const { [key]: _, ...rest } = t;
      return rest;
    });
  return {
    /** The box's state: the choice being saved, else the saved one. */
    shown: (key: string, saved: boolean) => ticks[key] ?? saved,
    pending: (key: string) => key in ticks,
    tick: (key: string, checked: boolean, save: () => Promise<unknown>) => {
      setTicks((t) => ({ ...t, [key]: checked }));
      save().then(
        () => settle(key),
        () => settle(key),
      );
    },
  };
}
