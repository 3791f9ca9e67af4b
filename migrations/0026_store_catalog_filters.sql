-- Store lists narrowed by collection, category, tag, type or gift card are answered from the store
-- documents and kept like the plain list (products/store-cache.ts). Which products such a list
-- holds also depends on these tables: the product's own columns, its category and tag links, and
-- the category tree (active, public, parents). Their writes move the catalog version and notify
-- like the tables of store_catalog_notify and store_catalog_version.
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_categories
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON product_tag_links
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE TRIGGER store_catalog_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_changed();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON product_categories
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON product_tag_links
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON categories
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON product_categories
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON product_tag_links
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
