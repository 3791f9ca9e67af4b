CREATE TABLE "customer_addresses" (
	"id" text PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	"address_name" text,
	"is_default_shipping" boolean DEFAULT false NOT NULL,
	"is_default_billing" boolean DEFAULT false NOT NULL,
	"company" text,
	"first_name" text,
	"last_name" text,
	"address_1" text,
	"address_2" text,
	"city" text,
	"country_code" text,
	"province" text,
	"postal_code" text,
	"phone" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "carts" ADD COLUMN "locale" text;--> statement-breakpoint
CREATE INDEX "customer_addresses_customer_idx" ON "customer_addresses" USING btree ("customer_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_addresses_default_shipping_idx" ON "customer_addresses" USING btree ("customer_id") WHERE is_default_shipping;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_addresses_default_billing_idx" ON "customer_addresses" USING btree ("customer_id") WHERE is_default_billing;