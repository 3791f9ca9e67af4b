CREATE TABLE "refund_reasons" (
	"id" text PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"code" text NOT NULL,
	"description" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "refund_reasons_code_live_idx" ON "refund_reasons" USING btree ("code") WHERE deleted_at is null;