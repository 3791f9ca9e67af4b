CREATE TABLE "order_buckets" (
	"bucket" timestamp with time zone NOT NULL,
	"currency_code" text NOT NULL,
	"slot" smallint NOT NULL,
	"sold" integer NOT NULL,
	"revenue" bigint NOT NULL,
	"placed" integer NOT NULL,
	CONSTRAINT "order_buckets_bucket_currency_code_slot_pk" PRIMARY KEY("bucket","currency_code","slot")
);
--> statement-breakpoint
CREATE TABLE "order_counts" (
	"is_draft_order" boolean NOT NULL,
	"status" text NOT NULL,
	"payment_status" text NOT NULL,
	"fulfillment_status" text NOT NULL,
	"region_id" text NOT NULL,
	"sales_channel_id" text NOT NULL,
	"slot" smallint NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "order_counts_is_draft_order_status_payment_status_fulfillment_status_region_id_sales_channel_id_slot_pk" PRIMARY KEY("is_draft_order","status","payment_status","fulfillment_status","region_id","sales_channel_id","slot")
);
--> statement-breakpoint
CREATE INDEX "customers_email_trgm_idx" ON "customers" USING gin ("email" gin_trgm_ops) WITH (gin_pending_list_limit=128);--> statement-breakpoint
CREATE INDEX "customers_first_name_trgm_idx" ON "customers" USING gin ("first_name" gin_trgm_ops) WITH (gin_pending_list_limit=128);--> statement-breakpoint
CREATE INDEX "customers_last_name_trgm_idx" ON "customers" USING gin ("last_name" gin_trgm_ops) WITH (gin_pending_list_limit=128);--> statement-breakpoint
CREATE INDEX "orders_lower_email_idx" ON "orders" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "orders_email_trgm_idx" ON "orders" USING gin ("email" gin_trgm_ops) WITH (gin_pending_list_limit=128);--> statement-breakpoint
CREATE INDEX "orders_lower_id_prefix_idx" ON "orders" USING btree (lower("id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "product_variants_low_stock_idx" ON "product_variants" USING btree ("inventory_quantity","id") WHERE deleted_at is null and manage_inventory and not allow_backorder and inventory_quantity <= 5;