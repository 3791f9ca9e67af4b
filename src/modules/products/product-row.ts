import type { CreateProductInput } from './schema.ts';
import type { products } from './tables.ts';

/** The dimensions and customs fields a product and its variants carry alike. */
export const PHYSICAL = [
  'weight',
  'length',
  'height',
  'width',
  'hs_code',
  'mid_code',
  'origin_country',
  'material',
] as const;

/**
 * A new product's row from its create body, with the defaults Medusa gives what the body leaves out
 * (draft, discountable, not a gift card): one place for the single create and the batch create.
 */
export function newProductRow(
  id: string,
  handle: string,
  input: CreateProductInput,
  now: Date,
): typeof products.$inferInsert {
  return {
    id,
    title: input.title,
    subtitle: input.subtitle ?? null,
    handle,
    description: input.description ?? null,
    status: input.status ?? 'draft',
    thumbnail: input.thumbnail ?? null,
    is_giftcard: input.is_giftcard ?? false,
    discountable: input.discountable ?? true,
    collection_id: input.collection_id ?? null,
    type_id: input.type_id ?? null,
    external_id: input.external_id ?? null,
    shipping_profile_id: input.shipping_profile_id ?? null,
    ...Object.fromEntries(PHYSICAL.map((f) => [f, input[f] ?? null])),
    metadata: input.metadata ?? null,
    created_at: now,
    updated_at: now,
  };
}
