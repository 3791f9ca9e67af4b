-- PostgreSQL: the instances holding a read lease on the store catalog (products/catalog-leases.ts).
-- A holder answers store reads from memory without reading store_catalog_version while its lease
-- runs, and renews it every few hundred milliseconds; a write's answer waits until every holder
-- listed here acknowledged the write or its lease ran out. Unused on the embedded database.
CREATE TABLE "store_catalog_leases" (
	"holder" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- As before (0025), and the writer's connection is told, in the same answer as its COMMIT, that
-- this transaction changed what the store shows: only such a write waits for the lease holders.
CREATE OR REPLACE FUNCTION store_catalog_bump() RETURNS trigger LANGUAGE plpgsql AS $$
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
  RAISE NOTICE 'emporium_store_catalog changed';
  RETURN NULL;
END
$$;
