import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps, ts } from '../../platform/db/columns.ts';

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    /** A built-in role's name (team's roles.ts) or a custom role's id (team's `roles`). */
    role: text('role').notNull(),
    first_name: text('first_name'),
    last_name: text('last_name'),
    avatar_url: text('avatar_url'),
    /** Raised by every password change; a token carries the version it was issued at, and an older one is refused. */
    token_version: integer('token_version').notNull().default(0),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('users_email_live_idx').on(sql`lower(${t.email})`).where(sql`deleted_at is null`)],
);

/**
 * Password reset tokens of admin users and customer logins: only the sha256 of the token is kept
 * (the emailed link holds the token itself), valid 15 minutes, used once.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: idColumn(),
    actor_type: text('actor_type').$type<'user' | 'customer'>().notNull(),
    /** `users.id`, or `customer_auth_identities.id` for a customer. */
    identity_id: text('identity_id').notNull(),
    token_hash: text('token_hash').notNull(),
    expires_at: ts('expires_at').notNull(),
    used_at: ts('used_at'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_hash_idx').on(t.token_hash),
    index('password_reset_tokens_identity_idx').on(t.identity_id),
  ],
);
