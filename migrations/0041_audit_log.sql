CREATE TABLE "audit_changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"audit_id" text NOT NULL,
	"table_name" text NOT NULL,
	"row_id" text,
	"column_name" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"actor_role" text,
	"method" text NOT NULL,
	"route" text NOT NULL,
	"path" text NOT NULL,
	"resource" text,
	"action" text,
	"resource_id" text,
	"fields" jsonb NOT NULL,
	"changes" jsonb NOT NULL,
	"in_transaction" boolean NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE INDEX "audit_changes_audit_idx" ON "audit_changes" USING btree ("audit_id");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_resource_idx" ON "audit_log" USING btree ("resource","resource_id","created_at" DESC NULLS LAST);