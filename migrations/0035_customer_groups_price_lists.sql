CREATE TABLE "customer_group_customers" (
	"customer_group_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "customer_group_customers_customer_group_id_customer_id_pk" PRIMARY KEY("customer_group_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "customer_groups" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"metadata" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "price_list_prices" (
	"id" text PRIMARY KEY NOT NULL,
	"price_list_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"currency_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"min_quantity" integer,
	"max_quantity" integer,
	"region_id" text,
	"rules" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_lists" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"type" text DEFAULT 'sale' NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"rules" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"group_ids" text[],
	"rules_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "prices_variant_currency_idx";--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "min_quantity" integer;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "max_quantity" integer;--> statement-breakpoint
CREATE INDEX "customer_group_customers_customer_idx" ON "customer_group_customers" USING btree ("customer_id","customer_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_groups_name_live_idx" ON "customer_groups" USING btree ("name") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "price_list_prices_variant_idx" ON "price_list_prices" USING btree ("variant_id","currency_code");--> statement-breakpoint
CREATE INDEX "price_list_prices_list_idx" ON "price_list_prices" USING btree ("price_list_id","id");--> statement-breakpoint
CREATE INDEX "prices_variant_tiers_idx" ON "prices" USING btree ("variant_id","currency_code","min_quantity");--> statement-breakpoint
CREATE UNIQUE INDEX "prices_variant_currency_idx" ON "prices" USING btree ("variant_id","currency_code") WHERE min_quantity is null and max_quantity is null;