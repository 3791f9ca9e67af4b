import { sql } from 'drizzle-orm';
import { boolean, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../../platform/db/columns.ts';

/** Ed25519 keys of this marketplace. One is active (signs); old ones stay published for verification. */
export const marketplaceSigningKeys = pgTable(
  'marketplace_signing_keys',
  {
    /** First 16 hex characters of sha256(raw public key). */
    key_id: text('key_id').primaryKey(),
    /** base64 of the raw 32-byte public key. */
    public_key: text('public_key').notNull(),
    /** PKCS#8 DER private key, base64, encrypted with ENCRYPTION_KEY (platform/crypto.ts). */
    private_key_encrypted: text('private_key_encrypted').notNull(),
    active: boolean('active').notNull(),
    created_at: ts('created_at').notNull(),
    /** A revoked key signs nothing more and is listed on the revocation list; shops refuse what it signed. */
    revoked_at: ts('revoked_at'),
  },
  // At most one active key: concurrent first starts race on this index, and one key wins.
  (t) => [uniqueIndex('marketplace_signing_keys_active_idx').on(t.active).where(sql`active`)],
);
