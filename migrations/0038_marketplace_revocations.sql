CREATE TABLE "marketplace_revocations" (
	"id" text PRIMARY KEY NOT NULL,
	"sequence" integer NOT NULL,
	"kind" text NOT NULL,
	"marketplace_id" text,
	"version" text,
	"key_id" text,
	"severity" text NOT NULL,
	"reason" text NOT NULL,
	"revoked_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_signing_keys" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_revocations_sequence_idx" ON "marketplace_revocations" USING btree ("sequence");