CREATE TABLE "product_channel_counts" (
	"sales_channel_id" text PRIMARY KEY NOT NULL,
	"visible_products" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "products_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "products_search_trgm_idx" ON "products" USING gin ((lower("title" || ' ' || "handle" || ' ' || coalesce("description", ''))) gin_trgm_ops) WITH (gin_pending_list_limit=128);