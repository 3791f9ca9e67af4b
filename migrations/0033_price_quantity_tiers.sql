DROP INDEX "prices_variant_currency_idx";--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "min_quantity" integer;--> statement-breakpoint
ALTER TABLE "prices" ADD COLUMN "max_quantity" integer;--> statement-breakpoint
CREATE INDEX "prices_variant_tiers_idx" ON "prices" USING btree ("variant_id","currency_code","min_quantity");--> statement-breakpoint
CREATE UNIQUE INDEX "prices_variant_currency_idx" ON "prices" USING btree ("variant_id","currency_code") WHERE min_quantity is null and max_quantity is null;