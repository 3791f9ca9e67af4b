-- Medusa's order credit lines (POST /admin/orders/{id}/credit-lines): money set against an order's
-- total outside any payment, each added by a confirmed `credit_line` order change in its version.
CREATE TABLE "order_credit_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"version" integer NOT NULL,
	"reference" text NOT NULL,
	"reference_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_credit_lines_order_idx" ON "order_credit_lines" USING btree ("order_id");