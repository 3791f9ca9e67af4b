CREATE TABLE "order_change_actions" (
	"id" text PRIMARY KEY NOT NULL,
	"order_change_id" text NOT NULL,
	"order_id" text NOT NULL,
	"return_id" text,
	"version" integer NOT NULL,
	"action" text NOT NULL,
	"reference" text,
	"reference_id" text,
	"details" jsonb NOT NULL,
	"amount" bigint NOT NULL,
	"internal_note" text,
	"applied" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"return_id" text,
	"change_type" text NOT NULL,
	"status" text NOT NULL,
	"version" integer NOT NULL,
	"description" text,
	"internal_note" text,
	"created_by" text,
	"requested_by" text,
	"requested_at" timestamp with time zone,
	"confirmed_by" text,
	"confirmed_at" timestamp with time zone,
	"declined_by" text,
	"declined_reason" text,
	"declined_at" timestamp with time zone,
	"canceled_by" text,
	"canceled_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_summaries" (
	"order_id" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"original_order_total" bigint NOT NULL,
	"adjustment_total" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_versions" (
	"order_id" text NOT NULL,
	"version" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "order_versions_order_id_version_pk" PRIMARY KEY("order_id","version")
);
--> statement-breakpoint
CREATE TABLE "return_items" (
	"id" text PRIMARY KEY NOT NULL,
	"return_id" text NOT NULL,
	"order_id" text NOT NULL,
	"item_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"received_quantity" integer DEFAULT 0 NOT NULL,
	"damaged_quantity" integer DEFAULT 0 NOT NULL,
	"reason_id" text,
	"note" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "return_reasons" (
	"id" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"label" text NOT NULL,
	"description" text,
	"parent_return_reason_id" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "returns" (
	"id" text PRIMARY KEY NOT NULL,
	"display_id" serial NOT NULL,
	"order_id" text NOT NULL,
	"status" text NOT NULL,
	"location_id" text,
	"description" text,
	"internal_note" text,
	"no_notification" boolean DEFAULT false NOT NULL,
	"created_by" text,
	"requested_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "order_change_actions_change_idx" ON "order_change_actions" USING btree ("order_change_id");--> statement-breakpoint
CREATE INDEX "order_changes_order_idx" ON "order_changes" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_changes_one_open_idx" ON "order_changes" USING btree ("order_id") WHERE status in ('pending', 'requested');--> statement-breakpoint
CREATE INDEX "return_items_return_idx" ON "return_items" USING btree ("return_id");--> statement-breakpoint
CREATE INDEX "return_items_order_idx" ON "return_items" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "return_reasons_value_idx" ON "return_reasons" USING btree ("value") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "returns_order_idx" ON "returns" USING btree ("order_id");