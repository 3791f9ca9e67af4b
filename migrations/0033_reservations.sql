CREATE TABLE "reservation_items" (
	"id" text PRIMARY KEY NOT NULL,
	"inventory_item_id" text NOT NULL,
	"location_id" text NOT NULL,
	"line_item_id" text,
	"quantity" integer NOT NULL,
	"allow_backorder" boolean DEFAULT false NOT NULL,
	"description" text,
	"external_id" text,
	"created_by" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reservation_items_quantity_check" CHECK ("reservation_items"."quantity" > 0)
);
--> statement-breakpoint
CREATE INDEX "reservation_items_item_location_idx" ON "reservation_items" USING btree ("inventory_item_id","location_id");--> statement-breakpoint
CREATE INDEX "reservation_items_location_idx" ON "reservation_items" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "reservation_items_line_idx" ON "reservation_items" USING btree ("line_item_id");