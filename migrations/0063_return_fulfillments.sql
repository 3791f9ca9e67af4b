CREATE TABLE "return_fulfillments" (
	"id" text PRIMARY KEY NOT NULL,
	"return_id" text NOT NULL,
	"order_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"shipping_option_id" text,
	"location_id" text,
	"data" jsonb,
	"items" jsonb NOT NULL,
	"labels" jsonb NOT NULL,
	"delivered_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "return_fulfillments_return_idx" ON "return_fulfillments" USING btree ("return_id");