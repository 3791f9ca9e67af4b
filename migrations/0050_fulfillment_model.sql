CREATE TABLE "fulfillment_sets" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"location_id" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "geo_zones" (
	"id" text PRIMARY KEY NOT NULL,
	"service_zone_id" text NOT NULL,
	"type" text NOT NULL,
	"country_code" text NOT NULL,
	"province_code" text,
	"city" text,
	"postal_expression" jsonb,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_zones" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"fulfillment_set_id" text NOT NULL,
	"region_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "shipping_option_prices" (
	"id" text PRIMARY KEY NOT NULL,
	"shipping_option_id" text NOT NULL,
	"currency_code" text,
	"region_id" text,
	"amount" bigint NOT NULL,
	"rules" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_option_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"shipping_option_id" text NOT NULL,
	"attribute" text NOT NULL,
	"operator" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "shipping_options" ALTER COLUMN "region_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_options" ALTER COLUMN "amount" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "fulfillments" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "fulfillments" ADD COLUMN "data" jsonb;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "shipping_profile_id" text;--> statement-breakpoint
ALTER TABLE "shipping_options" ADD COLUMN "service_zone_id" text;--> statement-breakpoint
ALTER TABLE "shipping_options" ADD COLUMN "shipping_profile_id" text DEFAULT 'sp_default' NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_options" ADD COLUMN "type" jsonb;--> statement-breakpoint
ALTER TABLE "shipping_options" ADD COLUMN "metadata" jsonb;--> statement-breakpoint
CREATE INDEX "fulfillment_sets_location_idx" ON "fulfillment_sets" USING btree ("location_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "geo_zones_zone_idx" ON "geo_zones" USING btree ("service_zone_id");--> statement-breakpoint
CREATE INDEX "geo_zones_country_idx" ON "geo_zones" USING btree ("country_code");--> statement-breakpoint
CREATE INDEX "service_zones_set_idx" ON "service_zones" USING btree ("fulfillment_set_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "shipping_option_prices_option_idx" ON "shipping_option_prices" USING btree ("shipping_option_id");--> statement-breakpoint
CREATE INDEX "shipping_option_rules_option_idx" ON "shipping_option_rules" USING btree ("shipping_option_id");--> statement-breakpoint
CREATE INDEX "shipping_options_zone_idx" ON "shipping_options" USING btree ("service_zone_id") WHERE deleted_at is null;