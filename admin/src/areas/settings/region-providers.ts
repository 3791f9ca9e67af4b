import type { Item, Ok } from '../../api/types.ts';
/** What the choice needs of a running provider (the list route answers more). */
export type RunningProvider = Pick<
  Item<Ok<'/admin/payments/payment-providers'>['payment_providers']>,
  'id' | 'name' | 'plugin'
>;

export interface ProviderChoice {
  id: string;
  name: string;
  plugin: string | null;
  /** A plugin (or the shop itself) runs it now; a region may still name one that stopped. */
  running: boolean;
  checked: boolean;
}

/**
 * The checkboxes of a region's payment providers: every provider running in the shop, plus any
 * the region names that no longer runs (so the operator sees it and can drop it), in that order.
 */
export function providerChoices(running: RunningProvider[], named: string[]): ProviderChoice[] {
  const choices = running.map((p) => ({ ...p, running: true, checked: named.includes(p.id) }));
  for (const id of named)
    if (!running.some((p) => p.id === id)) choices.push({ id, name: id, plugin: null, running: false, checked: true });
  return choices;
}
