CREATE TABLE "order_claim_items" (
	"id" text PRIMARY KEY NOT NULL,
	"claim_id" text NOT NULL,
	"order_id" text NOT NULL,
	"item_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"display_id" serial NOT NULL,
	"order_id" text NOT NULL,
	"return_id" text,
	"type" text NOT NULL,
	"refund_amount" bigint,
	"no_notification" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"confirmed_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_exchanges" (
	"id" text PRIMARY KEY NOT NULL,
	"display_id" serial NOT NULL,
	"order_id" text NOT NULL,
	"return_id" text,
	"difference_due" bigint,
	"allow_backorder" boolean DEFAULT false NOT NULL,
	"no_notification" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"confirmed_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_collections" ALTER COLUMN "cart_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "order_changes" ADD COLUMN "exchange_id" text;--> statement-breakpoint
ALTER TABLE "order_changes" ADD COLUMN "claim_id" text;--> statement-breakpoint
ALTER TABLE "payment_collections" ADD COLUMN "order_id" text;--> statement-breakpoint
CREATE INDEX "order_claim_items_claim_idx" ON "order_claim_items" USING btree ("claim_id");--> statement-breakpoint
CREATE INDEX "order_claim_items_order_idx" ON "order_claim_items" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_claims_order_idx" ON "order_claims" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_exchanges_order_idx" ON "order_exchanges" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payment_collections_order_idx" ON "payment_collections" USING btree ("order_id");