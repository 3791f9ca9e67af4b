import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps, ts } from '../../platform/db/columns.ts';

/**
 * Roles an owner makes beyond the built-in ones (roles.ts): a name and permission patterns
 * (`orders:read`, `products:*`). `users.role` holds a built-in role's name or one of these ids.
 */
export const roles = pgTable(
  'roles',
  {
    id: idColumn(),
    name: text('name').notNull(),
    description: text('description'),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('roles_name_idx').on(sql`lower(${t.name})`)],
);

/**
 * Invitations to join the team: only the sha256 of the token is kept (the mailed link holds
 * the token). Accepting creates the user with the invite's role and marks it accepted.
 */
export const invites = pgTable(
  'invites',
  {
    id: idColumn(),
    email: text('email').notNull(),
    role: text('role').notNull(),
    token_hash: text('token_hash').notNull(),
    accepted_by: text('accepted_by'),
    expires_at: ts('expires_at').notNull(),
    invited_by: text('invited_by'),
    ...metadata,
    ...timestamps,
  },
  (t) => [
    uniqueIndex('invites_token_hash_idx').on(t.token_hash),
    index('invites_email_idx').on(sql`lower(${t.email})`),
  ],
);
