CREATE TABLE "marketplace_vendor_namespaces" (
	"namespace" text PRIMARY KEY NOT NULL,
	"vendor_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_vendor_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"vendor_id" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_vendor_verifications" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"vendor_id" text NOT NULL,
	"namespace" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_vendors" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_vendor_namespaces" ADD CONSTRAINT "marketplace_vendor_namespaces_vendor_id_marketplace_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."marketplace_vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_vendor_tokens" ADD CONSTRAINT "marketplace_vendor_tokens_vendor_id_marketplace_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."marketplace_vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "marketplace_vendor_verifications" ADD CONSTRAINT "marketplace_vendor_verifications_vendor_id_marketplace_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."marketplace_vendors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "marketplace_vendor_namespaces_vendor_idx" ON "marketplace_vendor_namespaces" USING btree ("vendor_id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_vendor_tokens_hash_idx" ON "marketplace_vendor_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "marketplace_vendor_tokens_vendor_idx" ON "marketplace_vendor_tokens" USING btree ("vendor_id");--> statement-breakpoint
CREATE INDEX "marketplace_vendor_verifications_vendor_idx" ON "marketplace_vendor_verifications" USING btree ("vendor_id") WHERE used_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_vendors_email_idx" ON "marketplace_vendors" USING btree ("email");