CREATE TABLE "marketplace_artifacts" (
	"version_id" text PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_items" (
	"id" text PRIMARY KEY NOT NULL,
	"marketplace_id" text NOT NULL,
	"vendor" text NOT NULL,
	"manifest_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"changelog_url" text,
	"published" boolean DEFAULT true NOT NULL,
	"unpublished_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_signing_keys" (
	"key_id" text PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"private_key_encrypted" text NOT NULL,
	"active" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"item_id" text NOT NULL,
	"version" text NOT NULL,
	"version_key" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"signature" text NOT NULL,
	"key_id" text NOT NULL,
	"changelog_url" text,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_artifacts" ADD CONSTRAINT "marketplace_artifacts_version_id_marketplace_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."marketplace_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_versions" ADD CONSTRAINT "marketplace_versions_item_id_marketplace_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."marketplace_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_items_marketplace_id_idx" ON "marketplace_items" USING btree ("marketplace_id");--> statement-breakpoint
CREATE INDEX "marketplace_items_feed_idx" ON "marketplace_items" USING btree ("marketplace_id") WHERE published;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_signing_keys_active_idx" ON "marketplace_signing_keys" USING btree ("active") WHERE active;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_versions_item_version_idx" ON "marketplace_versions" USING btree ("item_id","version_key");