CREATE TABLE "federation_revocation_lists" (
	"marketplace_url" text PRIMARY KEY NOT NULL,
	"sequence" integer NOT NULL,
	"fetched_at" timestamp with time zone,
	"revoked_keys" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"refused_at" timestamp with time zone,
	"refused_reason" text
);
--> statement-breakpoint
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
ALTER TABLE "marketplace_versions" ADD COLUMN "status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD COLUMN "review_checks" jsonb;--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "marketplace_vendors" ADD COLUMN "trusted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "revocation" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_revocations_sequence_idx" ON "marketplace_revocations" USING btree ("sequence");--> statement-breakpoint
CREATE INDEX "marketplace_versions_review_idx" ON "marketplace_versions" USING btree ("published_at") WHERE status = 'in_review';