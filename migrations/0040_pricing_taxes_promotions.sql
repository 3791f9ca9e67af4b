CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"campaign_identifier" text NOT NULL,
	"description" text,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"budget_id" text,
	"budget_type" text,
	"budget_limit" numeric,
	"budget_used" numeric DEFAULT '0' NOT NULL,
	"budget_currency_code" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cart_promotions" (
	"cart_id" text NOT NULL,
	"promotion_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cart_promotions_cart_id_promotion_id_pk" PRIMARY KEY("cart_id","promotion_id")
);
--> statement-breakpoint
CREATE TABLE "promotion_usages" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"promotion_id" text NOT NULL,
	"campaign_id" text,
	"code" text NOT NULL,
	"amount" numeric NOT NULL,
	"within_budget" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "promotion_usages_within_budget" CHECK (within_budget)
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"is_automatic" boolean DEFAULT false NOT NULL,
	"is_tax_inclusive" boolean DEFAULT false NOT NULL,
	"campaign_id" text,
	"application_method" jsonb NOT NULL,
	"rules" jsonb NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "price_preferences" (
	"id" text PRIMARY KEY NOT NULL,
	"attribute" text NOT NULL,
	"value" text NOT NULL,
	"is_tax_inclusive" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tax_rate_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"tax_rate_id" text NOT NULL,
	"reference" text NOT NULL,
	"reference_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" text PRIMARY KEY NOT NULL,
	"tax_region_id" text NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"rate" numeric,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_combinable" boolean DEFAULT false NOT NULL,
	"metadata" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tax_regions" (
	"id" text PRIMARY KEY NOT NULL,
	"country_code" text NOT NULL,
	"province_code" text,
	"parent_id" text,
	"provider_id" text,
	"metadata" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "tax_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_line_items" ADD COLUMN "pricing" jsonb;--> statement-breakpoint
ALTER TABLE "order_shipping_methods" ADD COLUMN "pricing" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_identifier_idx" ON "campaigns" USING btree ("campaign_identifier") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "promotion_usages_promotion_idx" ON "promotion_usages" USING btree ("promotion_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promotions_code_idx" ON "promotions" USING btree (lower("code")) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "promotions_automatic_idx" ON "promotions" USING btree ("is_automatic") WHERE deleted_at is null and status = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "price_preferences_attr_idx" ON "price_preferences" USING btree ("attribute","value") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rate_rules_ref_idx" ON "tax_rate_rules" USING btree ("tax_rate_id","reference","reference_id");--> statement-breakpoint
CREATE INDEX "tax_rates_region_idx" ON "tax_rates" USING btree ("tax_region_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_regions_place_idx" ON "tax_regions" USING btree ("country_code",coalesce("province_code", '')) WHERE deleted_at is null;