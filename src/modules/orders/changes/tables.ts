import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps, ts } from '../../../platform/db/columns.ts';

/** Medusa's order change types this module applies. */
export type ChangeType =
  | 'return_request'
  | 'return_receive'
  | 'edit'
  | 'exchange'
  | 'claim'
  | 'transfer'
  | 'credit_line';
export type ChangeStatus = 'pending' | 'requested' | 'confirmed' | 'declined' | 'canceled';
export type ActionType =
  | 'ITEM_ADD'
  | 'ITEM_UPDATE'
  | 'RETURN_ITEM'
  | 'RECEIVE_RETURN_ITEM'
  | 'RECEIVE_DAMAGED_RETURN_ITEM'
  | 'SHIPPING_ADD'
  | 'WRITE_OFF_ITEM'
  | 'REINSTATE_ITEM'
  | 'SHIPPING_REMOVE'
  | 'TRANSFER_CUSTOMER'
  // A credit line (`amount` the credit, as Medusa's: it takes that much off what the order is worth).
  | 'CREDIT_LINE_ADD'
  // A draft order's promotion codes (`reference_id` the promotion, `details.code`).
  | 'PROMOTION_ADD'
  | 'PROMOTION_REMOVE';

/** A change to a placed order: actions gathered while pending, applied together when confirmed. */
export const orderChanges = pgTable(
  'order_changes',
  {
    id: idColumn(),
    order_id: text('order_id').notNull(),
    return_id: text('return_id'),
    exchange_id: text('exchange_id'),
    claim_id: text('claim_id'),
    change_type: text('change_type').$type<ChangeType>().notNull(),
    status: text('status').$type<ChangeStatus>().notNull(),
    /** The order version this change makes when confirmed. */
    version: integer('version').notNull(),
    description: text('description'),
    internal_note: text('internal_note'),
    created_by: text('created_by'),
    requested_by: text('requested_by'),
    requested_at: ts('requested_at'),
    confirmed_by: text('confirmed_by'),
    confirmed_at: ts('confirmed_at'),
    declined_by: text('declined_by'),
    declined_reason: text('declined_reason'),
    declined_at: ts('declined_at'),
    canceled_by: text('canceled_by'),
    canceled_at: ts('canceled_at'),
    ...metadata,
    ...timestamps,
  },
  (t) => [
    index('order_changes_order_idx').on(t.order_id),
    // One open change per order, as Medusa: whatever races, a second one is refused.
    uniqueIndex('order_changes_one_open_idx').on(t.order_id).where(sql`status in ('pending', 'requested')`),
  ],
);

/** What a line item or shipping method reference means depends on `action`. */
export interface ActionDetails {
  reference_id?: string;
  quantity?: number;
  unit_price?: number;
  variant_id?: string;
  reason_id?: string | null;
  shipping_option_id?: string | null;
  name?: string;
  [key: string]: unknown;
}

export const orderChangeActions = pgTable(
  'order_change_actions',
  {
    id: idColumn(),
    order_change_id: text('order_change_id').notNull(),
    order_id: text('order_id').notNull(),
    return_id: text('return_id'),
    version: integer('version').notNull(),
    action: text('action').$type<ActionType>().notNull(),
    reference: text('reference'),
    reference_id: text('reference_id'),
    details: jsonb('details').$type<ActionDetails>().notNull(),
    /** Signed effect on the order total in minor units (a received item is negative). */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    internal_note: text('internal_note'),
    applied: boolean('applied').notNull().default(false),
    ...timestamps,
  },
  (t) => [index('order_change_actions_change_idx').on(t.order_change_id)],
);

/** The order as it was at each version it left: written once, never updated. */
export const orderVersions = pgTable(
  'order_versions',
  {
    order_id: text('order_id').notNull(),
    version: integer('version').notNull(),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    created_at: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.order_id, t.version] })],
);

/**
 * Per order, once a change was confirmed: its version, its total at placement, and the money
 * returns moved beside the items (received items, return shipping). An order without a row is at
 * version 1 with nothing adjusted.
 */
export const orderSummaries = pgTable('order_summaries', {
  order_id: text('order_id').primaryKey(),
  version: integer('version').notNull(),
  original_order_total: bigint('original_order_total', { mode: 'number' }).notNull(),
  adjustment_total: bigint('adjustment_total', { mode: 'number' }).notNull(),
  updated_at: ts('updated_at').notNull(),
});

/**
 * Medusa's order credit lines: money set against the order total outside any payment (a goodwill
 * credit that settles what a change left owing, or a negative line that settles what the shop
 * owed). Each is added by a confirmed `credit_line` change, in the version it names; never updated.
 */
export const orderCreditLines = pgTable(
  'order_credit_lines',
  {
    id: idColumn(),
    order_id: text('order_id').notNull(),
    /** The order version whose change added it. */
    version: integer('version').notNull(),
    reference: text('reference').notNull(),
    reference_id: text('reference_id').notNull(),
    /** Minor units, signed: positive lowers what the shopper owes, negative what they are owed. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('order_credit_lines_order_idx').on(t.order_id)],
);
