import { executor, type Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { LineRow } from './queries.ts';
import type { cartLineItems } from './tables.ts';
import { findSellableVariants, type SellableVariant } from './variant-queries.ts';

export const insufficientInventory = () => errors.notAllowed('insufficient_inventory');

/**
 * The variants a cart may sell, keyed by id, with Medusa's 400s for the rest: missing, deleted,
 * unpublished or outside the cart's sales channel ("do not exist…", as the store would 404 such
 * a product), or without a price in the cart's currency.
 */
export async function sellableVariants(
  ctx: Ctx,
  variantIds: string[],
  cart: { currency_code: string; sales_channel_id: string | null },
): Promise<Map<string, SellableVariant>> {
  const ids = [...new Set(variantIds)];
  return sellableOf(ids, await findSellableVariants(executor(ctx), ids, cart.currency_code, cart.sales_channel_id));
}

/** The same checks on variants already read (checkout reads them with the cart it locks). */
export function sellableOf(variantIds: string[], read: SellableVariant[]): Map<string, SellableVariant> {
  const ids = [...new Set(variantIds)];
  const found = new Map(read.map((v) => [v.id, v]));
  const unavailable = ids.filter((id) => !found.get(id)?.live || !found.get(id)?.in_channel);
  if (unavailable.length) throw errors.invalid('variants_unavailable', { ids: unavailable.join(', ') });
  const unpriced = ids.filter((id) => found.get(id)!.price == null);
  if (unpriced.length) throw errors.invalid('variants_unpriced', { ids: unpriced.join(', ') });
  return found;
}

/** A cart may not ask for more than is in stock of a variant that manages inventory and allows no backorder. */
export function assertInStock(v: SellableVariant, quantity: number): void {
  if (v.manage_inventory && !v.allow_backorder && quantity > v.inventory_quantity) throw insufficientInventory();
}

/** Same variant and same metadata (absent, null and {} alike) means the same line. */
export function sameMetadata(
  a: Record<string, unknown> | null | undefined,
  b: Record<string, unknown> | null | undefined,
): boolean {
  return canonical(a ?? {}) === canonical(b ?? {});
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** What a line copies of the variant it sells, for a cart's line or an order's added by an edit or a draft. */
export function variantCopy(v: SellableVariant) {
  return {
    variant_id: v.id,
    product_id: v.product_id,
    title: v.product_title,
    subtitle: v.product_subtitle,
    thumbnail: v.thumbnail,
    product_title: v.product_title,
    product_handle: v.product_handle,
    variant_title: v.title,
    variant_sku: v.sku,
  };
}

export function newLine(
  cartId: string,
  v: SellableVariant,
  quantity: number,
  metadata: Record<string, unknown> | null | undefined,
  now: Date,
): typeof cartLineItems.$inferInsert {
  return {
    id: newId('cali'),
    cart_id: cartId,
    ...variantCopy(v),
    unit_price: v.price!,
    quantity,
    metadata: metadata ?? null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Merges requested items into the existing lines: an item matching a line (variant + metadata)
 * adds to its quantity, others become new lines. Checks stock against the resulting quantities.
 */
export function mergeItems(
  cartId: string,
  existing: LineRow[],
  items: { variant_id: string; quantity: number; metadata?: Record<string, unknown> | null }[],
  variants: Map<string, SellableVariant>,
  now: Date,
): { inserts: (typeof cartLineItems.$inferInsert)[]; updates: { id: string; quantity: number }[] } {
  const lines: {
    id: string;
    variant_id: string;
    quantity: number;
    metadata: Record<string, unknown> | null | undefined;
    isNew: boolean;
    changed: boolean;
  }[] = existing.map((l) => ({
    id: l.id,
    variant_id: l.variant_id,
    quantity: l.quantity,
    metadata: l.metadata,
    isNew: false,
    changed: false,
  }));
  const inserts = new Map<string, typeof cartLineItems.$inferInsert>();
  for (const item of items) {
    const match = lines.find((l) => l.variant_id === item.variant_id && sameMetadata(l.metadata, item.metadata));
    if (match) {
      match.quantity += item.quantity;
      match.changed = true;
      if (match.isNew) inserts.get(match.id)!.quantity = match.quantity;
    } else {
      const row = newLine(cartId, variants.get(item.variant_id)!, item.quantity, item.metadata, now);
      inserts.set(row.id!, row);
      lines.push({
        id: row.id!,
        variant_id: item.variant_id,
        quantity: item.quantity,
        metadata: item.metadata,
        isNew: true,
        changed: true,
      });
    }
  }
  const perVariant = new Map<string, number>();
  for (const l of lines) perVariant.set(l.variant_id, (perVariant.get(l.variant_id) ?? 0) + l.quantity);
  for (const [id, quantity] of perVariant) if (variants.has(id)) assertInStock(variants.get(id)!, quantity);
  return {
    inserts: [...inserts.values()],
    updates: lines.filter((l) => l.changed && !l.isNew).map((l) => ({ id: l.id, quantity: l.quantity })),
  };
}
