ALTER TABLE "marketplace_versions" ADD COLUMN "status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD COLUMN "review_checks" jsonb;--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "marketplace_vendors" ADD COLUMN "trusted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "marketplace_versions_review_idx" ON "marketplace_versions" USING btree ("published_at") WHERE status = 'in_review';