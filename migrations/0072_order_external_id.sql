ALTER TABLE "orders" ADD COLUMN "external_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_external_id_idx" ON "orders" USING btree ("external_id") WHERE external_id is not null;