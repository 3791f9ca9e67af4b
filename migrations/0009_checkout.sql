CREATE TABLE "cart_line_items" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"thumbnail" text,
	"product_title" text NOT NULL,
	"product_handle" text,
	"variant_title" text NOT NULL,
	"variant_sku" text,
	"unit_price" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cart_shipping_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text NOT NULL,
	"shipping_option_id" text NOT NULL,
	"name" text NOT NULL,
	"amount" bigint NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"id" text PRIMARY KEY NOT NULL,
	"region_id" text NOT NULL,
	"sales_channel_id" text,
	"currency_code" text NOT NULL,
	"email" text,
	"customer_id" text,
	"shipping_address" jsonb,
	"billing_address" jsonb,
	"metadata" jsonb,
	"completed_at" timestamp with time zone,
	"abandoned_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_options" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"region_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"price_type" text DEFAULT 'flat' NOT NULL,
	"provider_id" text DEFAULT 'manual_manual' NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_collections" (
	"id" text PRIMARY KEY NOT NULL,
	"cart_id" text NOT NULL,
	"currency_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_collection_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"currency_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"payment_collection_id" text,
	"payment_session_id" text,
	"provider_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency_code" text NOT NULL,
	"status" text NOT NULL,
	"captured_amount" bigint DEFAULT 0 NOT NULL,
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"captured_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_line_items" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"thumbnail" text,
	"product_title" text NOT NULL,
	"product_handle" text,
	"variant_title" text NOT NULL,
	"variant_sku" text,
	"unit_price" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"reserved_quantity" integer DEFAULT 0 NOT NULL,
	"fulfilled_quantity" integer DEFAULT 0 NOT NULL,
	"shipped_quantity" integer DEFAULT 0 NOT NULL,
	"returned_quantity" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_shipping_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"shipping_option_id" text,
	"name" text NOT NULL,
	"amount" bigint NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"display_id" serial NOT NULL,
	"status" text NOT NULL,
	"payment_status" text NOT NULL,
	"fulfillment_status" text NOT NULL,
	"cart_id" text NOT NULL,
	"customer_id" text,
	"email" text NOT NULL,
	"region_id" text NOT NULL,
	"sales_channel_id" text,
	"currency_code" text NOT NULL,
	"shipping_address" jsonb,
	"billing_address" jsonb,
	"item_total" bigint NOT NULL,
	"shipping_total" bigint NOT NULL,
	"tax_total" bigint DEFAULT 0 NOT NULL,
	"discount_total" bigint DEFAULT 0 NOT NULL,
	"total" bigint NOT NULL,
	"metadata" jsonb,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cart_line_items_cart_idx" ON "cart_line_items" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "cart_shipping_methods_cart_idx" ON "cart_shipping_methods" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "carts_idle_idx" ON "carts" USING btree ("last_activity_at") WHERE completed_at is null and abandoned_at is null;--> statement-breakpoint
CREATE INDEX "carts_customer_idx" ON "carts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "shipping_options_region_idx" ON "shipping_options" USING btree ("region_id") WHERE deleted_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_collections_cart_idx" ON "payment_collections" USING btree ("cart_id");--> statement-breakpoint
CREATE INDEX "payment_sessions_collection_idx" ON "payment_sessions" USING btree ("payment_collection_id");--> statement-breakpoint
CREATE INDEX "payments_order_idx" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_line_items_order_idx" ON "order_line_items" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_shipping_methods_order_idx" ON "order_shipping_methods" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_cart_idx" ON "orders" USING btree ("cart_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_display_id_idx" ON "orders" USING btree ("display_id");--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "orders_created_at_idx" ON "orders" USING btree ("created_at");