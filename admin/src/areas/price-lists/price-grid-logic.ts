import { fromMinor, toMinor } from '../../lib/format.ts';
import type { GridRow, ListPrice } from './types.ts';

/** The price grid's rows from a list's prices, and the batch that turns the grid back into prices. */

/** Variant labels the operator has seen (picked from a product search), by variant id. */
export type Labels = Record<string, string>;

export function gridRows(prices: ListPrice[]): GridRow[] {
  return prices.map((p) => ({
    key: p.id,
    id: p.id,
    variant_id: p.variant_id,
    currency_code: p.currency_code,
    amount: fromMinor(p.amount, p.currency_code),
    min_quantity: p.min_quantity == null ? '' : String(p.min_quantity),
    max_quantity: p.max_quantity == null ? '' : String(p.max_quantity),
    region_id: p.rules.region_id ?? '',
  }));
}

const bound = (text: string) => (text.trim() === '' ? null : Number(text));

function priceOf(r: GridRow) {
  return {
    variant_id: r.variant_id,
    currency_code: r.currency_code,
    amount: toMinor(r.amount, r.currency_code) ?? 0,
    min_quantity: bound(r.min_quantity),
    max_quantity: bound(r.max_quantity),
    rules: r.region_id ? { region_id: r.region_id } : {},
  };
}

function same(p: ListPrice, n: ReturnType<typeof priceOf>): boolean {
  return (
    p.currency_code === n.currency_code &&
    p.amount === n.amount &&
    p.min_quantity === n.min_quantity &&
    p.max_quantity === n.max_quantity &&
    (p.rules.region_id ?? '') === (n.rules.region_id ?? '')
  );
}

/** `POST /admin/price-lists/{id}/prices/batch`: new rows created, changed ones updated, removed ones deleted. */
export function batchOf(saved: ListPrice[], rows: GridRow[]) {
  const byId = new Map(saved.map((p) => [p.id, p]));
  const kept = new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
  const create = rows.filter((r) => !r.id).map(priceOf);
  const update = rows
    .filter((r) => r.id && !same(byId.get(r.id)!, priceOf(r)))
    .map((r) => ({ id: r.id!, ...priceOf(r) }));
  const remove = saved.filter((p) => !kept.has(p.id)).map((p) => p.id);
  return { create, update, delete: remove };
}
