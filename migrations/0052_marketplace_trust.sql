CREATE TABLE "federation_log_heads" (
	"marketplace_url" text PRIMARY KEY NOT NULL,
	"tree_size" integer NOT NULL,
	"root_hash" text NOT NULL,
	"timestamp" text NOT NULL,
	"key_id" text NOT NULL,
	"signature" text NOT NULL,
	"checked_at" timestamp with time zone,
	"refused_at" timestamp with time zone,
	"refused_reason" text
);
--> statement-breakpoint
CREATE TABLE "federation_served_artifacts" (
	"marketplace_url" text NOT NULL,
	"marketplace_id" text NOT NULL,
	"version" text NOT NULL,
	"sha256" text NOT NULL,
	"leaf_index" integer,
	"tree_size" integer,
	"refused_reason" text,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "federation_served_artifacts_marketplace_url_marketplace_id_version_sha256_pk" PRIMARY KEY("marketplace_url","marketplace_id","version","sha256")
);
--> statement-breakpoint
CREATE TABLE "marketplace_crash_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"version_id" text NOT NULL,
	"instance_hash" text NOT NULL,
	"reason" text NOT NULL,
	"rolled_back_to" text,
	"reports" integer DEFAULT 1 NOT NULL,
	"first_reported_at" timestamp with time zone NOT NULL,
	"last_reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_installs" (
	"item_id" text NOT NULL,
	"instance_hash" text NOT NULL,
	"version" text NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "marketplace_installs_item_id_instance_hash_pk" PRIMARY KEY("item_id","instance_hash")
);
--> statement-breakpoint
CREATE TABLE "marketplace_log_entries" (
	"leaf_index" integer PRIMARY KEY NOT NULL,
	"version_id" text NOT NULL,
	"marketplace_id" text NOT NULL,
	"version" text NOT NULL,
	"sha256" text NOT NULL,
	"key_id" text NOT NULL,
	"logged_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_reviews" (
	"id" text PRIMARY KEY NOT NULL,
	"item_id" text NOT NULL,
	"instance_hash" text NOT NULL,
	"rating" integer NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"version" text,
	"reply" text,
	"replied_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD COLUMN "rollout_percent" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD COLUMN "rollout_halted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "previous_release" jsonb;--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "rollback" jsonb;--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "held_versions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_crash_reports_version_instance_idx" ON "marketplace_crash_reports" USING btree ("version_id","instance_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_log_entries_version_idx" ON "marketplace_log_entries" USING btree ("version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_reviews_item_instance_idx" ON "marketplace_reviews" USING btree ("item_id","instance_hash");