ALTER TABLE "plugins" ADD COLUMN "granted_permissions" jsonb;--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "pending_version" text;--> statement-breakpoint
ALTER TABLE "plugins" ADD COLUMN "pending_permissions" jsonb;