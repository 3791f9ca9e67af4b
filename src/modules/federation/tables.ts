import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../platform/db/columns.ts';

/**
 * The per-instance secret behind the instance token sent to marketplaces (contract B5):
 * one row, created on first use. Kept out of settings so no admin screen ever shows it.
 */
export const instanceIdentity = pgTable('instance_identity', {
  id: integer('id').primaryKey(),
  /** 32 random bytes, hex, encrypted with ENCRYPTION_KEY. */
  secret_encrypted: text('secret_encrypted').notNull(),
  created_at: ts('created_at').notNull(),
});
