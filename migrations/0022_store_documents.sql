CREATE TABLE "store_documents" (
	"product_id" text PRIMARY KEY NOT NULL,
	"handle" text NOT NULL,
	"channel_ids" text[] NOT NULL,
	"head" text NOT NULL,
	"variant_ids" text[] NOT NULL,
	"variant_parts" text[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_documents_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"shape" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_listing" (
	"sales_channel_id" text NOT NULL,
	"product_id" text NOT NULL,
	"search" text NOT NULL,
	CONSTRAINT "store_listing_sales_channel_id_product_id_pk" PRIMARY KEY("sales_channel_id","product_id")
);
--> statement-breakpoint
CREATE INDEX "store_documents_handle_idx" ON "store_documents" USING btree ("handle");--> statement-breakpoint
CREATE INDEX "store_listing_product_idx" ON "store_listing" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "store_listing_search_idx" ON "store_listing" USING gin ("search" gin_trgm_ops) WITH (gin_pending_list_limit=128);