import { boolean, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

export const salesChannels = pgTable('sales_channels', {
  id: idColumn(),
  name: text('name').notNull(),
  description: text('description'),
  is_disabled: boolean('is_disabled').notNull().default(false),
  ...metadata,
  ...timestamps,
  ...softDelete,
});
