import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps } from '../../platform/db/columns.ts';
import { swapHeadColumns, swapTailColumns } from '../exchanges/swap-columns.ts';

export type ClaimType = 'replace' | 'refund';
export type ClaimReason = 'missing_item' | 'wrong_item' | 'production_failure' | 'other';

/**
 * A claim on a placed order (Medusa's order_claim): items that arrived missing or broken, made good
 * by replacements sent at no charge (`replace`) or by money back (`refund`), with or without a
 * return of the claimed items.
 */
export const orderClaims = pgTable(
  'order_claims',
  {
    ...swapHeadColumns(),
    type: text('type').$type<ClaimType>().notNull(),
    /** What the claim credits the shopper once confirmed (refund claims). */
    refund_amount: bigint('refund_amount', { mode: 'number' }),
    ...swapTailColumns(),
  },
  (t) => [index('order_claims_order_idx').on(t.order_id)],
);

/** An item claimed (written when the claim is confirmed). */
export const orderClaimItems = pgTable(
  'order_claim_items',
  {
    id: idColumn(),
    claim_id: text('claim_id').notNull(),
    order_id: text('order_id').notNull(),
    item_id: text('item_id').notNull(),
    quantity: integer('quantity').notNull(),
    reason: text('reason').$type<ClaimReason>().notNull(),
    note: text('note'),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('order_claim_items_claim_idx').on(t.claim_id), index('order_claim_items_order_idx').on(t.order_id)],
);
