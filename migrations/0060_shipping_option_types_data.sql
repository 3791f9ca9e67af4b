-- Every existing option's type becomes a shared type row, with the id it already answered
-- (`sotype_<option id>`), and the option names it.
INSERT INTO shipping_option_types (id, label, code, description, created_at, updated_at)
  SELECT 'sotype_' || id, coalesce(type->>'label', ''), coalesce(type->>'code', ''),
         coalesce(type->>'description', ''), created_at, updated_at
  FROM shipping_options
  WHERE type IS NOT NULL AND type_id IS NULL
  ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
UPDATE shipping_options SET type_id = 'sotype_' || id WHERE type IS NOT NULL AND type_id IS NULL;
