CREATE TABLE "plugin_artifacts" (
	"sha256" text PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plugin_migrations" (
	"manifest_id" text NOT NULL,
	"schema_name" text NOT NULL,
	"filename" text NOT NULL,
	"checksum" text NOT NULL,
	"applied_at" timestamp with time zone NOT NULL,
	CONSTRAINT "plugin_migrations_schema_name_filename_pk" PRIMARY KEY("schema_name","filename")
);
--> statement-breakpoint
CREATE TABLE "plugins" (
	"id" text PRIMARY KEY NOT NULL,
	"manifest_id" text NOT NULL,
	"marketplace_id" text NOT NULL,
	"vendor" text NOT NULL,
	"version" text NOT NULL,
	"target_version" text,
	"status" text NOT NULL,
	"error" text,
	"source" text,
	"license_key" text,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"manifest" jsonb,
	"artifact_sha256" text,
	"admin_sha256" text,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"installed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "instance_identity" (
	"id" integer PRIMARY KEY NOT NULL,
	"secret_encrypted" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "plugins_marketplace_id_idx" ON "plugins" USING btree ("marketplace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plugins_manifest_id_idx" ON "plugins" USING btree ("manifest_id");--> statement-breakpoint
CREATE INDEX "plugins_status_idx" ON "plugins" USING btree ("status");