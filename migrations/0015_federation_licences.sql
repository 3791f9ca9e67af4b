CREATE TABLE "federation_seen_deliveries" (
	"signature_hash" text PRIMARY KEY NOT NULL,
	"delivery_id" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plugin_licence_checks" (
	"plugin_id" text PRIMARY KEY NOT NULL,
	"last_verified_at" timestamp with time zone NOT NULL,
	"last_result" jsonb NOT NULL,
	"grace_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "federation_seen_deliveries_expires_idx" ON "federation_seen_deliveries" USING btree ("expires_at");