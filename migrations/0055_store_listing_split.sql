-- Stock moves with every order, and used to empty every kept store answer, including the ones
-- that show no stock at all (categories and collections with their products, `fields=handle`
-- lists). The store catalog's NOTIFY now says which it was: an empty payload for a change of what
-- the store lists (documents, products, prices, regions, channels, categories), `s` for a change
-- of stock only (levels, reservations' counts, item links, locations, a variant's own
-- inventory_quantity). Answers that show stock start over on both; the others only on the first
-- (products/store-cache.ts, `listing`). A listing change also raises a NOTICE, so an instance on
-- PostgreSQL can tell its own listing writes from its stock writes (catalog-leases.ts).
CREATE OR REPLACE FUNCTION store_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('emporium_store_catalog', '');
  RAISE NOTICE 'emporium_store_listing changed';
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION store_stock_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('emporium_store_catalog', 's');
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['inventory_levels', 'product_variant_inventory_items', 'inventory_items',
      'stock_locations', 'sales_channel_stock_locations'] LOOP
    EXECUTE format('DROP TRIGGER store_catalog_changed ON %I', t);
    EXECUTE format('CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION store_stock_changed()', t);
  END LOOP;
END
$$;
--> statement-breakpoint
-- A variant's update is a stock change when nothing but its own stock number (and updated_at)
-- moved: a checkout of a variant without inventory items, a restock, a return.
CREATE FUNCTION store_variants_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE to_jsonb(o) - 'inventory_quantity' - 'updated_at' IS DISTINCT FROM to_jsonb(n) - 'inventory_quantity' - 'updated_at')
    OR (SELECT count(*) FROM old_rows) <> (SELECT count(*) FROM old_rows o JOIN new_rows n ON n.id = o.id) THEN
    PERFORM pg_notify('emporium_store_catalog', '');
    RAISE NOTICE 'emporium_store_listing changed';
  ELSE
    PERFORM pg_notify('emporium_store_catalog', 's');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER store_catalog_changed ON product_variants;
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR DELETE OR TRUNCATE ON product_variants
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_variants_updated AFTER UPDATE ON product_variants
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION store_variants_updated();
