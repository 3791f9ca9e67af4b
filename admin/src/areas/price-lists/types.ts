/** The admin API's price list, as the panel reads it (amounts in minor units). */

export interface ListPrice {
  id: string;
  variant_id: string;
  currency_code: string;
  amount: number;
  min_quantity: number | null;
  max_quantity: number | null;
  rules: Record<string, string>;
}

export interface PriceList {
  id: string;
  title: string;
  description: string | null;
  type: 'sale' | 'override';
  status: 'draft' | 'active';
  starts_at: string | null;
  ends_at: string | null;
  rules: Record<string, string[]>;
  prices: ListPrice[];
}

export const GROUP_RULE = 'customer.groups.id';

/** One row of the price grid as typed: amount as the operator writes it, bounds as text. */
export interface GridRow {
  key: string;
  id?: string;
  variant_id: string;
  currency_code: string;
  amount: string;
  min_quantity: string;
  max_quantity: string;
  region_id: string;
}

/** Whether a list applies now, by its status and window. */
export function listState(l: Pick<PriceList, 'status' | 'starts_at' | 'ends_at'>, now = new Date()): string {
  if (l.status === 'draft') return 'draft';
  if (l.starts_at && new Date(l.starts_at) > now) return 'scheduled';
  if (l.ends_at && new Date(l.ends_at) <= now) return 'expired';
  return 'active';
}
