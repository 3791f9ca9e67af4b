-- A return label is recorded before its carrier is asked, outside the order lock, so a retry after a
-- timeout asks again with the same id (returns/return-fulfillment.ts).
CREATE TABLE "return_label_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"question" text NOT NULL,
	"state" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "return_label_attempts_question_idx" ON "return_label_attempts" USING btree ("order_id","question");