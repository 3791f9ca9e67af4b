-- Store lists narrowed by collection, category, tag, type or gift card are answered from the store
-- documents and kept like the plain list (products/store-cache.ts). Which products such a list
-- holds also depends on these tables: the product's own columns, its category and tag links, and
-- the category tree (active, public, parents). Each gets the three triggers the tables of
-- store_catalog_notify and store_catalog_version have: NOTIFY per statement, the deferred version
-- bump per row, and the bump on TRUNCATE.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['products', 'product_categories', 'product_tag_links', 'categories'] LOOP
    EXECUTE format('CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed()', t);
    EXECUTE format('CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON %I
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump()', t);
    EXECUTE format('CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump()', t);
  END LOOP;
END
$$;
