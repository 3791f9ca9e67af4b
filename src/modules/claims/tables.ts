import { bigint, boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps, ts } from '../../platform/db/columns.ts';

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
    id: idColumn(),
    display_id: serial('display_id').notNull(),
    order_id: text('order_id').notNull(),
    return_id: text('return_id'),
    type: text('type').$type<ClaimType>().notNull(),
    /** What the claim credits the shopper once confirmed (refund claims). */
    refund_amount: bigint('refund_amount', { mode: 'number' }),
    no_notification: boolean('no_notification').notNull().default(false),
    created_by: text('created_by'),
    confirmed_at: ts('confirmed_at'),
    canceled_at: ts('canceled_at'),
    ...metadata,
    ...timestamps,
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
