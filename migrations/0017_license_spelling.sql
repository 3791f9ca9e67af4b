-- One spelling across code and schema: the API says "license".
ALTER TABLE "plugin_licence_checks" RENAME TO "plugin_license_checks";--> statement-breakpoint
ALTER TABLE "plugin_license_checks" RENAME CONSTRAINT "plugin_licence_checks_pkey" TO "plugin_license_checks_pkey";
