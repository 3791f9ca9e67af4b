CREATE TABLE "federation_revocation_lists" (
	"marketplace_url" text PRIMARY KEY NOT NULL,
	"sequence" integer NOT NULL,
	"fetched_at" timestamp with time zone,
	"revoked_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"refused_at" timestamp with time zone,
	"refused_reason" text
);
--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "revocation" jsonb;