import type { Item, Ok } from '../../api/types.ts';
import { useApi } from '../../lib/api-hooks.ts';

export type InventoryItem = Ok<'/admin/inventory-items/{id}'>['inventory_item'];
export type Level = Item<InventoryItem['location_levels']>;
export type Reservation = Item<Ok<'/admin/reservations'>['reservations']>;
export type StockLocation = Item<Ok<'/admin/stock-locations'>['stock_locations']>;

/**
 * One stock adjustment as the panel records it in the item's `metadata.stock_adjustments`: the
 * level API takes quantities only (Medusa's contract has no reason field), so the reason is kept
 * on the item, newest last, the last ADJUSTMENTS_KEPT of them.
 */
export interface Adjustment {
  location_id: string;
  from: number;
  to: number;
  reason: string;
  at: string;
  by: string;
}
export const ADJUSTMENTS_KEPT = 20;

export function adjustmentsOf(item: InventoryItem): Adjustment[] {
  const list = item.metadata?.stock_adjustments;
  return Array.isArray(list) ? (list as Adjustment[]) : [];
}

/** Every stock location, by id, for names (a shop has a handful; 1000 is the API's page maximum). */
export function useLocations() {
  return useApi<{ stock_locations: StockLocation[] }, StockLocation[]>(
    ['stock-locations', 'all'],
    '/admin/stock-locations',
    { limit: 1000 },
    { select: (d) => d.stock_locations },
  );
}

export const locationName = (locations: StockLocation[] | undefined, id: string) =>
  locations?.find((l) => l.id === id)?.name ?? id;
