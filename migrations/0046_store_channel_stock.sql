-- The store's inventory_quantity is what the request's sales channels' locations can sell
-- (products/store-queries.ts, channelQuantity), so a kept store answer also depends on the levels,
-- the variant ↔ item links, the items, the locations and which channels they serve: a move of
-- stock between two locations leaves the variant's own number unchanged but changes what one
-- channel sees. Each table gets the three triggers of store_catalog_filters.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['inventory_levels', 'product_variant_inventory_items', 'inventory_items',
      'stock_locations', 'sales_channel_stock_locations'] LOOP
    EXECUTE format('CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed()', t);
    EXECUTE format('CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON %I
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump()', t);
    EXECUTE format('CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump()', t);
  END LOOP;
END
$$;
