CREATE TABLE "marketplace_callbacks" (
	"id" text PRIMARY KEY NOT NULL,
	"checkout_session_id" text NOT NULL,
	"url" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"marketplace_id" text NOT NULL,
	"version" text NOT NULL,
	"customer_email" text NOT NULL,
	"instance_id" text NOT NULL,
	"callback_url" text,
	"provider" text NOT NULL,
	"provider_session_id" text,
	"url" text,
	"status" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"license_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_licenses" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"marketplace_id" text NOT NULL,
	"instance_id" text NOT NULL,
	"tier" text NOT NULL,
	"purchased_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"renewed_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"checkout_session_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_callbacks_checkout_idx" ON "marketplace_callbacks" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "marketplace_callbacks_due_idx" ON "marketplace_callbacks" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_checkout_sessions_provider_idx" ON "marketplace_checkout_sessions" USING btree ("provider","provider_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_licenses_key_idx" ON "marketplace_licenses" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_licenses_checkout_idx" ON "marketplace_licenses" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "marketplace_licenses_item_idx" ON "marketplace_licenses" USING btree ("marketplace_id","id");