CREATE TABLE "stores" (
	"id" text PRIMARY KEY NOT NULL,
	"singleton" boolean DEFAULT true NOT NULL,
	"name" text NOT NULL,
	"supported_currencies" jsonb NOT NULL,
	"default_sales_channel_id" text,
	"default_region_id" text,
	"default_location_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "stores_singleton_idx" ON "stores" USING btree ("singleton") WHERE "stores"."singleton";