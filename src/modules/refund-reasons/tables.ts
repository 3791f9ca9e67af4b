import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

/** Why money went back (Medusa's refund reasons); a refund names one by `refund_reason_id`. */
export const refundReasons = pgTable(
  'refund_reasons',
  {
    id: idColumn(),
    label: text('label').notNull(),
    code: text('code').notNull(),
    description: text('description'),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('refund_reasons_code_live_idx').on(t.code).where(sql`deleted_at is null`)],
);
