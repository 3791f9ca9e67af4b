-- The store catalog's version: sum(v) over the shards moves with every committed transaction that
-- changes what the store shows (the tables of store_catalog_notify), so a reader on any instance
-- can tell whether an answer it kept is still the catalog's (products/store-cache.ts). Bumped in
-- the writer's transaction, hence visible exactly when its changes are; one shard per
-- transaction (its id modulo 16), so concurrent checkouts seldom queue on one row.
CREATE TABLE "store_catalog_version" (
	"shard" integer PRIMARY KEY NOT NULL,
	"v" bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO store_catalog_version (shard, v) SELECT g, 0 FROM generate_series(0, 15) g;
--> statement-breakpoint
-- Once per transaction (the setting is local to it). The row may be missing after a TRUNCATE of
-- the table (tests empty every table): it is then created.
CREATE FUNCTION store_catalog_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('emporium.store_catalog_bumped', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('emporium.store_catalog_bumped', 'on', true);
  UPDATE store_catalog_version SET v = v + 1 WHERE shard = txid_current() % 16;
  IF NOT FOUND THEN
    INSERT INTO store_catalog_version (shard, v) VALUES (txid_current() % 16, 1)
      ON CONFLICT (shard) DO UPDATE SET v = store_catalog_version.v + 1;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Deferred to the commit: the shard's row lock is then the last lock the transaction takes, held
-- only while it commits. Taken at the first write instead, a checkout holding its shard would wait
-- for a variant another checkout of the same shard holds, which waits for the shard: a deadlock.
-- Constraint triggers are per row; after the first, each costs the setting check above.
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON store_documents
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON store_listing
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON product_variants
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON prices
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON regions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER store_catalog_version AFTER INSERT OR UPDATE OR DELETE ON product_channel_counts
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
-- TRUNCATE fires statement triggers only; it locks the whole table anyway.
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON store_documents
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON store_listing
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON product_variants
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON prices
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON regions
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
--> statement-breakpoint
CREATE TRIGGER store_catalog_version_truncate AFTER TRUNCATE ON product_channel_counts
  FOR EACH STATEMENT EXECUTE FUNCTION store_catalog_bump();
