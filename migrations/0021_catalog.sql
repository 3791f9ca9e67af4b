CREATE TABLE "categories" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"handle" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"is_internal" boolean DEFAULT false NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"parent_category_id" text,
	"external_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"handle" text NOT NULL,
	"external_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_tag_links" (
	"product_id" text NOT NULL,
	"tag_id" text NOT NULL,
	CONSTRAINT "product_tag_links_product_id_tag_id_pk" PRIMARY KEY("product_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "product_tags" (
	"id" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_types" (
	"id" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "product_images" (
	"id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"url" text NOT NULL,
	"rank" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_variant_images" (
	"variant_id" text NOT NULL,
	"image_id" text NOT NULL,
	CONSTRAINT "product_variant_images_variant_id_image_id_pk" PRIMARY KEY("variant_id","image_id")
);
--> statement-breakpoint
CREATE TABLE "uploaded_files" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"filename" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "uploaded_files_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "barcode" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "ean" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "upc" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "thumbnail" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "weight" double precision;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "length" double precision;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "height" double precision;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "width" double precision;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "hs_code" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "mid_code" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "origin_country" text;--> statement-breakpoint
ALTER TABLE "product_variants" ADD COLUMN "material" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "weight" double precision;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "length" double precision;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "height" double precision;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "width" double precision;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "hs_code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "mid_code" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "origin_country" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "material" text;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_handle_live_idx" ON "categories" USING btree ("handle") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_category_id","rank");--> statement-breakpoint
CREATE UNIQUE INDEX "product_collections_handle_live_idx" ON "product_collections" USING btree ("handle") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_tag_links_tag_idx" ON "product_tag_links" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_tags_value_live_idx" ON "product_tags" USING btree ("value") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "product_types_value_live_idx" ON "product_types" USING btree ("value") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "product_images_product_idx" ON "product_images" USING btree ("product_id","rank");--> statement-breakpoint
CREATE INDEX "product_variant_images_image_idx" ON "product_variant_images" USING btree ("image_id");--> statement-breakpoint
CREATE INDEX "products_type_idx" ON "products" USING btree ("type_id");