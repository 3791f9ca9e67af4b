-- Price lists change what the store shows (calculated_price): their writes move the store
-- catalog's version and wake the store cache, like prices (store_catalog_notify, store_catalog_version).
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON price_lists
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON price_list_prices
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON price_lists
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON price_list_prices
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON price_lists
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON price_list_prices
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
