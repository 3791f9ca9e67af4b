-- Whose data each plugin schema holds (plugins/plugin-role.ts claimSchema): a schema outlives
-- its plugin's uninstall, and another vendor's plugin with the same manifest id (or a long id
-- whose cut name collides) must not be handed it. Schemas made before this are claimed by the
-- next plugin that loads them.
CREATE TABLE "plugin_schemas" (
	"schema_name" text PRIMARY KEY NOT NULL,
	"vendor" text NOT NULL,
	"manifest_id" text NOT NULL
);
