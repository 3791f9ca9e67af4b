CREATE TABLE "shipping_option_types" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"code" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stock_location_fulfillment_providers" (
	"stock_location_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stock_location_fulfillment_providers_stock_location_id_provider_id_pk" PRIMARY KEY("stock_location_id","provider_id")
);
--> statement-breakpoint
ALTER TABLE "shipping_options" ADD COLUMN "type_id" text;