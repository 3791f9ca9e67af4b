import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps, ts } from '../../platform/db/columns.ts';

export type ReturnStatus = 'open' | 'requested' | 'received' | 'partially_received' | 'canceled';

/** Why things come back; nested one level (or more) through parent_return_reason_id. */
export const returnReasons = pgTable(
  'return_reasons',
  {
    id: idColumn(),
    value: text('value').notNull(),
    label: text('label').notNull(),
    description: text('description'),
    parent_return_reason_id: text('parent_return_reason_id'),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('return_reasons_value_idx').on(t.value).where(sql`deleted_at is null`)],
);

export const returns = pgTable(
  'returns',
  {
    id: idColumn(),
    display_id: serial('display_id').notNull(),
    order_id: text('order_id').notNull(),
    status: text('status').$type<ReturnStatus>().notNull(),
    location_id: text('location_id'),
    description: text('description'),
    internal_note: text('internal_note'),
    no_notification: boolean('no_notification').notNull().default(false),
    created_by: text('created_by'),
    requested_at: ts('requested_at'),
    received_at: ts('received_at'),
    canceled_at: ts('canceled_at'),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('returns_order_idx').on(t.order_id)],
);

/** A line asked back (written when the request is confirmed) and how much of it arrived. */
export const returnItems = pgTable(
  'return_items',
  {
    id: idColumn(),
    return_id: text('return_id').notNull(),
    order_id: text('order_id').notNull(),
    item_id: text('item_id').notNull(),
    quantity: integer('quantity').notNull(),
    received_quantity: integer('received_quantity').notNull().default(0),
    damaged_quantity: integer('damaged_quantity').notNull().default(0),
    reason_id: text('reason_id'),
    note: text('note'),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('return_items_return_idx').on(t.return_id), index('return_items_order_idx').on(t.order_id)],
);

/** One line's units in a return parcel, copied so the parcel reads on its own. */
export interface ReturnFulfillmentItemJson {
  line_item_id: string;
  title: string;
  sku: string | null;
  quantity: number;
}

export interface ReturnFulfillmentLabelJson {
  id: string;
  tracking_number: string;
  tracking_url: string;
  label_url: string;
}

/**
 * The parcel a return comes back in, made through its return shipping option's provider when the
 * request is confirmed (Medusa's return fulfillment): the provider's data (its shipment, handed
 * back to cancel it) and labels (return label, tracking). Delivered when the return is received,
 * canceled with the return.
 */
export const returnFulfillments = pgTable(
  'return_fulfillments',
  {
    id: idColumn(),
    return_id: text('return_id').notNull(),
    order_id: text('order_id').notNull(),
    provider_id: text('provider_id').notNull(),
    shipping_option_id: text('shipping_option_id'),
    /** Where the parcel goes back to: the return's location, else its option's. */
    location_id: text('location_id'),
    data: jsonb('data').$type<Record<string, unknown> | null>(),
    items: jsonb('items').$type<ReturnFulfillmentItemJson[]>().notNull(),
    labels: jsonb('labels').$type<ReturnFulfillmentLabelJson[]>().notNull(),
    delivered_at: ts('delivered_at'),
    canceled_at: ts('canceled_at'),
    ...timestamps,
  },
  (t) => [index('return_fulfillments_return_idx').on(t.return_id)],
);

/**
 * A return label being asked of a plugin's carrier with the order unlocked (return-fulfillment.ts),
 * written before the carrier is asked: `calling` while it is asked, `unanswered` when it gave no
 * answer in time. Asking for the same label again (the same order, provider and question) takes the
 * row over and asks with the same id as the carrier's idempotency key, so a carrier that made the
 * label anyway answers with it instead of making a second. Removed when the label is kept on a
 * return (as that return fulfilment's id) or the carrier refused, and swept (canceled at the
 * carrier) once no retry can take it over.
 */
export const returnLabelAttempts = pgTable(
  'return_label_attempts',
  {
    /** The return fulfilment's id to be: the carrier's reference and idempotency key. */
    id: idColumn(),
    order_id: text('order_id').notNull(),
    /**
     * The return it is asked for (the last one that asked: a store return sent again is a new
     * return); a label no retry of that return can take over any more is swept (label-attempts.ts).
     */
    return_id: text('return_id'),
    provider_id: text('provider_id').notNull(),
    /** A digest of what the carrier is asked (the items, addresses, option), its fulfilment id aside. */
    question: text('question').notNull(),
    state: text('state').$type<'calling' | 'unanswered'>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('return_label_attempts_question_idx').on(t.order_id, t.question)],
);
