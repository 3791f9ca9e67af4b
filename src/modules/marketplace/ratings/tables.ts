import { integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../../platform/db/columns.ts';

/** Shops that downloaded an item (ratings/): one row per item and instance (sha256 of its token). */
export const marketplaceInstalls = pgTable(
  'marketplace_installs',
  {
    item_id: text('item_id').notNull(),
    instance_hash: text('instance_hash').notNull(),
    version: text('version').notNull(),
    first_at: ts('first_at').notNull(),
    /** Active installs are those downloaded in the last 90 days. */
    last_at: ts('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.item_id, t.instance_hash] })],
);

/** A shop's rating and review of an item it installed: one per item and instance, editable. */
export const marketplaceReviews = pgTable(
  'marketplace_reviews',
  {
    id: idColumn(),
    item_id: text('item_id').notNull(),
    instance_hash: text('instance_hash').notNull(),
    rating: integer('rating').notNull(),
    body: text('body').notNull().default(''),
    version: text('version'),
    reply: text('reply'),
    replied_at: ts('replied_at'),
    /** The operator hid it (abusive): out of the averages and the item page. */
    hidden_at: ts('hidden_at'),
    hidden_reason: text('hidden_reason'),
    ...timestamps,
  },
  (t) => [uniqueIndex('marketplace_reviews_item_instance_idx').on(t.item_id, t.instance_hash)],
);
