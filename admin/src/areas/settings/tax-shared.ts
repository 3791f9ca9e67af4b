import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { Item, Ok } from '../../api/types.ts';

/** What Settings → Taxes' pages share: the tax regions (one query for both pages) and how they are named. */

export type TaxRegion = Item<Ok<'/admin/tax-regions'>['tax_regions']>;
export type TaxRate = Item<TaxRegion['tax_rates']>;

export const TAX_KEY = ['tax-regions'];

export const percent = (rate: number | null) => (rate == null ? '—' : `${rate} %`);

export const place = (r: Pick<TaxRegion, 'country_code' | 'province_code'>) =>
  r.province_code ? `${r.country_code.toUpperCase()} · ${r.province_code.toUpperCase()}` : r.country_code.toUpperCase();

/** A typed percentage ("7", "7,5") as the API's number. */
export const rateOf = (text: string) => Number(text.replace(',', '.'));

export function useTaxRegions() {
  return useQuery({
    queryKey: TAX_KEY,
    queryFn: ({ signal }) => api<Ok<'/admin/tax-regions'>>('/admin/tax-regions', { query: { limit: 1000 }, signal }),
  });
}
