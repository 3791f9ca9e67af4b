import type { Item, Ok } from '../../api/types.ts';

/** The product as the admin detail route answers it (generated from the server's schema). */
export type Product = Ok<'/admin/products/{id}'>['product'];
export type Variant = Item<Product['variants']>;
export type Price = Item<Variant['prices']>;

export const PRODUCT_STATUSES = ['draft', 'proposed', 'published', 'rejected'] as const;
