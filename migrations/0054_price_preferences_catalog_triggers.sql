-- Price preferences change what the store shows (calculated_price's tax-inclusive flags): their
-- writes move the store catalog's version and wake the store cache, like price lists (0036).
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON price_preferences
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON price_preferences
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON price_preferences
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
