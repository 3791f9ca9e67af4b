-- Tells listeners that what the store shows may have changed: the stored documents and listing
-- (every product write, through refreshStoreDocuments), stock (checkout, the order desk, any
-- writer), prices, regions (currency, tax inclusion) and the channels' counts. The embedded
-- database's per-process store response cache (products/store-cache.ts) empties on it; NOTIFY is
-- delivered at commit and folded to one per transaction. Statement triggers: one per write.
CREATE FUNCTION store_catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('emporium_store_catalog', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_documents
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON store_listing
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_variants
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON prices
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON regions
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_channel_counts
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
