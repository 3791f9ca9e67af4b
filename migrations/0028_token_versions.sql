-- A password reset revokes what the old password gave (auth/password-reset.ts): each login has a
-- token version, raised by every password change; tokens carry the version they were issued at
-- and the guards refuse an older one (read in the query they already make). Existing tokens have
-- no version claim and count as 0. A constant default makes these ADD COLUMNs catalog-only.
ALTER TABLE "users" ADD COLUMN "token_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_auth_identities" ADD COLUMN "token_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The reset deletes the login's sessions by the claims they were made from.
CREATE INDEX "sessions_identity_idx" ON "sessions" USING btree (("claims"->>'auth_identity_id'));
