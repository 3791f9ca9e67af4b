import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, softDelete, timestamps, ts } from '../../platform/db/columns.ts';

/**
 * Publishable keys keep their token in clear (they are public by design, sent from browsers).
 * Secret keys keep only a sha256 of the token; the token itself is shown once at creation.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: idColumn(),
    title: text('title').notNull(),
    type: text('type').$type<'publishable' | 'secret'>().notNull(),
    token: text('token'),
    token_hash: text('token_hash').notNull(),
    redacted: text('redacted').notNull(),
    created_by: text('created_by'),
    last_used_at: ts('last_used_at'),
    revoked_at: ts('revoked_at'),
    revoked_by: text('revoked_by'),
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('api_keys_token_hash_idx').on(t.token_hash)],
);

export const apiKeySalesChannels = pgTable(
  'api_key_sales_channels',
  {
    api_key_id: text('api_key_id').notNull(),
    sales_channel_id: text('sales_channel_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.api_key_id, t.sales_channel_id] }),
    index('aksc_channel_idx').on(t.sales_channel_id),
  ],
);
