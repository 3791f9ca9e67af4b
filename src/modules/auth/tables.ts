import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    role: text('role').$type<'admin' | 'viewer'>().notNull(),
    first_name: text('first_name'),
    last_name: text('last_name'),
    avatar_url: text('avatar_url'),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('users_email_live_idx').on(sql`lower(${t.email})`).where(sql`deleted_at is null`)],
);
