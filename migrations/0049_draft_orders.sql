CREATE SEQUENCE "public"."draft_order_display_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
DROP INDEX "orders_display_id_idx";--> statement-breakpoint
ALTER TABLE "order_line_items" ALTER COLUMN "variant_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "order_line_items" ALTER COLUMN "product_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "cart_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "is_draft_order" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_draft_display_id_idx" ON "orders" USING btree ("display_id") WHERE is_draft_order;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_display_id_idx" ON "orders" USING btree ("display_id") WHERE not is_draft_order;