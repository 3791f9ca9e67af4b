CREATE TABLE "marketplace_sales" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"refund_of" text,
	"marketplace_id" text NOT NULL,
	"vendor_id" text,
	"license_id" text,
	"provider" text NOT NULL,
	"payment_ref" text,
	"amount_cents" integer NOT NULL,
	"commission_cents" integer NOT NULL,
	"vendor_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"payout_status" text NOT NULL,
	"transfer_id" text,
	"paid_out_at" timestamp with time zone,
	"payout_error" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"license_id" text NOT NULL,
	"marketplace_id" text NOT NULL,
	"instance_id" text NOT NULL,
	"billing" text NOT NULL,
	"provider" text NOT NULL,
	"provider_subscription_id" text NOT NULL,
	"status" text NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"canceled_at" timestamp with time zone,
	"canceled_by" text,
	"last_payment_failed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_checkout_sessions" ADD COLUMN "billing" text DEFAULT 'one_time' NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_items" ADD COLUMN "billing" text DEFAULT 'one_time' NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_vendors" ADD COLUMN "commission_percent" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "marketplace_vendors" ADD COLUMN "payout_account" text;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_sales_source_idx" ON "marketplace_sales" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "marketplace_sales_vendor_idx" ON "marketplace_sales" USING btree ("vendor_id","id");--> statement-breakpoint
CREATE INDEX "marketplace_sales_payout_idx" ON "marketplace_sales" USING btree ("id") WHERE payout_status in ('pending', 'transferring');--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_subscriptions_provider_idx" ON "marketplace_subscriptions" USING btree ("provider","provider_subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_subscriptions_license_idx" ON "marketplace_subscriptions" USING btree ("license_id");--> statement-breakpoint
CREATE INDEX "marketplace_subscriptions_item_idx" ON "marketplace_subscriptions" USING btree ("marketplace_id","id");