import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { useToast } from '../../components/toasts.tsx';
import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

/**
 * What Settings → Taxes' pages share: the tax regions (one query for both pages), how they are
 * named, a write that refreshes them, and products by title.
 */

export type TaxRegion = Item<Ok<'/admin/tax-regions'>['tax_regions']>;
export type TaxRate = Item<TaxRegion['tax_rates']>;

export const TAX_KEY = ['tax-regions'];

export const percent = (rate: number | null) => (rate == null ? '—' : `${rate} %`);

export const place = (r: Pick<TaxRegion, 'country_code' | 'province_code'>) =>
  r.province_code ? `${r.country_code.toUpperCase()} · ${r.province_code.toUpperCase()}` : r.country_code.toUpperCase();

/** A typed percentage ("7", "7,5") as the API's number. */
export const rateOf = (text: string) => Number(text.replace(',', '.'));

export function useTaxRegions() {
  return useApi<Ok<'/admin/tax-regions'>>(TAX_KEY, '/admin/tax-regions', { limit: 1000 });
}

/**
 * A write of the tax pages: sent, `after` (a form cleared, before the refresh so nothing typed into
 * it meanwhile is wiped), the tax regions read again, a toast (`done`).
 */
export function useTaxWrite(write: () => Promise<unknown>, done: string, after?: () => void) {
  const client = useQueryClient();
  const notify = useToast();
  return useMutation({
    mutationFn: write,
    onSuccess: async () => {
      after?.();
      await client.invalidateQueries({ queryKey: TAX_KEY });
      notify(done, 'success');
    },
  });
}

/** Products' ids and titles (a search by `q`, or the ones named by `id`): what an override rate names. */
export function productTitles(query: { q?: string; id?: string[]; limit: number }, signal: AbortSignal) {
  return api<{ products: { id: string; title: string }[] }>('/admin/products', {
    query: { ...query, fields: 'id,title' },
    signal,
  });
}
