CREATE TABLE "outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"dispatched_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"avatar_url" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sales_channels" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_disabled" boolean DEFAULT false NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "api_key_sales_channels" (
	"api_key_id" text NOT NULL,
	"sales_channel_id" text NOT NULL,
	CONSTRAINT "api_key_sales_channels_api_key_id_sales_channel_id_pk" PRIMARY KEY("api_key_id","sales_channel_id")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL,
	"token" text,
	"token_hash" text NOT NULL,
	"redacted" text NOT NULL,
	"created_by" text,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "region_countries" (
	"iso_2" text PRIMARY KEY NOT NULL,
	"region_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"currency_code" text NOT NULL,
	"automatic_taxes" boolean DEFAULT true NOT NULL,
	"is_tax_inclusive" boolean DEFAULT false NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "prices" (
	"id" text PRIMARY KEY NOT NULL,
	"variant_id" text NOT NULL,
	"currency_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_categories" (
	"product_id" text NOT NULL,
	"category_id" text NOT NULL,
	CONSTRAINT "product_categories_product_id_category_id_pk" PRIMARY KEY("product_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "product_options" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"title" text NOT NULL,
	"values" jsonb NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_sales_channels" (
	"product_id" text NOT NULL,
	"sales_channel_id" text NOT NULL,
	CONSTRAINT "product_sales_channels_product_id_sales_channel_id_pk" PRIMARY KEY("product_id","sales_channel_id")
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"title" text NOT NULL,
	"sku" text,
	"manage_inventory" boolean DEFAULT true NOT NULL,
	"allow_backorder" boolean DEFAULT false NOT NULL,
	"inventory_quantity" integer DEFAULT 0 NOT NULL,
	"options" jsonb,
	"variant_rank" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"handle" text NOT NULL,
	"description" text,
	"status" text NOT NULL,
	"thumbnail" text,
	"is_giftcard" boolean DEFAULT false NOT NULL,
	"discountable" boolean DEFAULT true NOT NULL,
	"collection_id" text,
	"type_id" text,
	"external_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("id") WHERE dispatched_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_live_idx" ON "users" USING btree (lower("email")) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "aksc_channel_idx" ON "api_key_sales_channels" USING btree ("sales_channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_token_hash_idx" ON "api_keys" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "region_countries_region_idx" ON "region_countries" USING btree ("region_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prices_variant_currency_idx" ON "prices" USING btree ("variant_id","currency_code");--> statement-breakpoint
CREATE INDEX "product_categories_category_idx" ON "product_categories" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "product_options_product_idx" ON "product_options" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "psc_channel_idx" ON "product_sales_channels" USING btree ("sales_channel_id","product_id");--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_live_idx" ON "product_variants" USING btree ("sku") WHERE deleted_at is null and sku is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "products_handle_live_idx" ON "products" USING btree ("handle") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "products_collection_idx" ON "products" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "products_search_trgm_idx" ON "products" USING gin ((lower("title" || ' ' || "handle" || ' ' || coalesce("description", ''))) gin_trgm_ops);