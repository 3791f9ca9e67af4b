import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../platform/db/columns.ts';
import type { ActorClaims } from '../auth/tokens.ts';

/**
 * Cookie sessions (`connect.sid`), in the database so every instance sees them. The id is the
 * sha256 of the random token in the cookie: a leaked table does not give usable cookies.
 * A password reset deletes every session of its login, found by the claims' `auth_identity_id`.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    claims: jsonb('claims').$type<ActorClaims>().notNull(),
    expires_at: ts('expires_at').notNull(),
    created_at: ts('created_at').notNull(),
  },
  (t) => [
    index('sessions_expires_idx').on(t.expires_at),
    index('sessions_identity_idx').on(sql`(${t.claims}->>'auth_identity_id')`),
  ],
);
