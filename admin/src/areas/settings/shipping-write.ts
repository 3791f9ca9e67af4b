import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useToast } from '../../components/toasts.tsx';
import type { Item, Ok } from '../../api/types.ts';

export type Location = Item<Ok<'/admin/stock-locations'>['stock_locations']>;
export type FulfillmentSet = NonNullable<Location['fulfillment_sets']>[number];
export type Zone = FulfillmentSet['service_zones'][number];
export type Geo = Zone['geo_zones'][number];
export type ShippingOption = Item<Ok<'/admin/shipping-options'>['shipping_options']>;
export type Price = ShippingOption['prices'][number];
export type Profile = Item<Ok<'/admin/shipping-profiles'>['shipping_profiles']>;
export type Provider = Item<Ok<'/admin/fulfillment-providers'>['fulfillment_providers']>;
export type Region = Item<Ok<'/admin/regions'>['regions']>;
export type OptionType = Item<Ok<'/admin/shipping-option-types'>['shipping_option_types']>;

/** What every form of the page needs to offer its choices. */
export interface ShippingRefs {
  options: ShippingOption[];
  profiles: Profile[];
  providers: Provider[];
  regions: Region[];
  /** Shared option types an option may take (Settings → option types). */
  types: OptionType[];
  /** The currencies a flat price can be in: the regions' and the ones prices already use. */
  currencies: string[];
}

/** Every list the page draws from; a write refreshes them all (a deleted set takes its zones' options along). */
export const SHIPPING_KEYS = [
  ['/admin/stock-locations'],
  ['/admin/shipping-options'],
  ['/admin/shipping-profiles'],
  ['/admin/shipping-option-types'],
];

export interface Write {
  path: string;
  method?: 'POST' | 'DELETE';
  /** The body, or a function building it (a form check may throw an error naming its field). */
  body?: unknown | (() => unknown);
  done: string;
}

/**
 * One write of the Locations & shipping page: sent, its form cleared, the lists refreshed, a
 * toast. Each form holds its own, so an error shows by the form (and the field) it came from.
 */
export function useShippingWrite(onDone?: () => void) {
  const client = useQueryClient();
  const notify = useToast();
  return useMutation({
    mutationFn: async (w: Write) => {
      const body = typeof w.body === 'function' ? (w.body as () => unknown)() : w.body;
      return api<unknown>(w.path, {
        method: w.method ?? 'POST',
        body: w.method === 'DELETE' ? undefined : (body ?? {}),
      });
    },
    onSuccess: async (_data, w) => {
      // The form is cleared (or closed) before the lists refresh, not after: once the new row
      // shows, the form is ready for the next entry, and nothing typed into it is wiped later.
      onDone?.();
      await Promise.all(SHIPPING_KEYS.map((queryKey) => client.invalidateQueries({ queryKey })));
      notify(w.done, 'success');
    },
  });
}
