CREATE TABLE "inventory_defaults" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"location_id" text NOT NULL,
	CONSTRAINT "inventory_defaults_singleton_check" CHECK ("inventory_defaults"."singleton")
);
--> statement-breakpoint
CREATE TABLE "inventory_items" (
	"id" text PRIMARY KEY NOT NULL,
	"sku" text,
	"title" text,
	"description" text,
	"thumbnail" text,
	"origin_country" text,
	"hs_code" text,
	"mid_code" text,
	"material" text,
	"weight" double precision,
	"length" double precision,
	"height" double precision,
	"width" double precision,
	"requires_shipping" boolean DEFAULT true NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inventory_levels" (
	"id" text PRIMARY KEY NOT NULL,
	"inventory_item_id" text NOT NULL,
	"location_id" text NOT NULL,
	"stocked_quantity" integer DEFAULT 0 NOT NULL,
	"reserved_quantity" integer DEFAULT 0 NOT NULL,
	"incoming_quantity" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "inventory_levels_reserved_check" CHECK ("inventory_levels"."reserved_quantity" >= 0),
	CONSTRAINT "inventory_levels_incoming_check" CHECK ("inventory_levels"."incoming_quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_variant_inventory_items" (
	"id" text PRIMARY KEY NOT NULL,
	"variant_id" text NOT NULL,
	"inventory_item_id" text NOT NULL,
	"required_quantity" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pvii_required_check" CHECK ("product_variant_inventory_items"."required_quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "sales_channel_stock_locations" (
	"sales_channel_id" text NOT NULL,
	"stock_location_id" text NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sales_channel_stock_locations_sales_channel_id_stock_location_id_pk" PRIMARY KEY("sales_channel_id","stock_location_id")
);
--> statement-breakpoint
CREATE TABLE "stock_location_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"address_1" text NOT NULL,
	"address_2" text,
	"company" text,
	"city" text,
	"country_code" text NOT NULL,
	"phone" text,
	"province" text,
	"postal_code" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_locations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_items_sku_live_idx" ON "inventory_items" USING btree ("sku") WHERE deleted_at is null and sku is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_levels_item_location_idx" ON "inventory_levels" USING btree ("inventory_item_id","location_id");--> statement-breakpoint
CREATE INDEX "inventory_levels_location_idx" ON "inventory_levels" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pvii_variant_item_idx" ON "product_variant_inventory_items" USING btree ("variant_id","inventory_item_id");--> statement-breakpoint
CREATE INDEX "pvii_item_idx" ON "product_variant_inventory_items" USING btree ("inventory_item_id");--> statement-breakpoint
CREATE INDEX "scsl_location_idx" ON "sales_channel_stock_locations" USING btree ("stock_location_id");